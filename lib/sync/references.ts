/**
 * Every Secret and ConfigMap a spec references, with the field path that references it. The
 * customize hook asks Metacontroller for exactly these; the sync hook checks them in `related`.
 */
import type { CanonicalSpec, ConfigMapKey, SecretRef } from "../api/canonical";
import { userSecretEnv } from "../config/user-env";

export interface References {
  /** Secret key references (provider secrets, storage secrets), in spec order. */
  readonly secretKeys: readonly SecretRef[];
  /** Whole Secrets (the TLS Secret), with the keys they must hold. */
  readonly secrets: readonly { readonly name: string; readonly keys: readonly string[]; readonly path: string }[];
  /** ConfigMaps (overrideConfig, baseConfig, each CA bundle), with the keys they must hold. */
  readonly configMaps: readonly { readonly name: string; readonly keys: readonly string[]; readonly path: string }[];
}

function secretKeysOf(spec: CanonicalSpec): SecretRef[] {
  const secretKeys: SecretRef[] = spec.providers.flatMap((p) => p.secrets.map((s) => s.ref));
  const kv = spec.storage?.kv;
  if (kv?.type === "redis" && kv.password) secretKeys.push(kv.password);
  const sql = spec.storage?.sql;
  if (sql?.type === "postgres" && sql.connectionString) secretKeys.push(sql.connectionString);
  return secretKeys;
}

function configMapsOf(spec: CanonicalSpec): References["configMaps"] {
  const config = (path: string, ref: ConfigMapKey | undefined): References["configMaps"] =>
    ref ? [{ name: ref.configMapName, keys: [ref.key], path: `${path}.configMapName` }] : [];
  return [
    ...config("spec.overrideConfig", spec.overrideConfig),
    ...config("spec.baseConfig", spec.baseConfig),
    ...(spec.networking.tls.caBundle ?? []).map((ca) => ({
      name: ca.configMapName,
      keys: ca.configMapKeys,
      path: `${ca.path}.configMapName`,
    })),
  ];
}

export function referencesOf(spec: CanonicalSpec): References {
  const tls = spec.networking.tls;
  const secrets =
    tls.enabled && tls.secretName
      ? [{ name: tls.secretName, keys: ["tls.crt", "tls.key"], path: "spec.networking.tls.secretName" }]
      : [];
  // The auth client secret last: after the providers' and the stores', in spec order.
  const authSecret = spec.auth?.clientSecret;
  const secretKeys = secretKeysOf(spec);
  if (authSecret) secretKeys.push(authSecret);
  return { secretKeys, secrets, configMaps: configMapsOf(spec) };
}

/**
 * Sorted, de-duplicated names: what a customize rule lists. With the spec, also the Secrets of
 * `workload.overrides.env`, whose values are checked but whose absence is the kubelet's to report.
 */
export function secretNames(refs: References, spec?: CanonicalSpec): string[] {
  const user = spec ? userSecretEnv(spec).map((e) => e.secretName) : [];
  return [...new Set([...refs.secretKeys.map((r) => r.name), ...refs.secrets.map((s) => s.name), ...user])].sort();
}

export function configMapNames(refs: References): string[] {
  return [...new Set(refs.configMaps.map((c) => c.name))].sort();
}
