/**
 * Large but valid sync requests, each one distinct, as a tenant's CRs can make them: a provider
 * `settings` value, an `overrideConfig` ConfigMap and a CA-bundle ConfigMap near what the
 * apiserver accepts (etcd takes objects up to about 1.5 MiB; a ConfigMap's data at most 1 MiB).
 * Used by the hostile-size test (tests/build.test.ts) and the benchmark (bench/memory.ts).
 */
import { createHash } from "node:crypto";
import { aConfigMap, aParent, aRequest, aSecret, stamped } from "../sync-builders";
import type { SyncRequest } from "../../lib/wire/metacontroller";
import { INTERMEDIATE_CA, ODH_CA, ROOT_CA, RSA_CA } from "../lib/sync/certificates";

/** A provider's settings value of about 1 MiB, a ConfigMap of about 0.9 MiB. */
export const SETTINGS_BYTES = 1024 * 1024;
export const CONFIGMAP_BYTES = 900 * 1024;

export type HostileKind = "settings" | "override" | "caBundle" | "normal";
export const KINDS: readonly HostileKind[] = ["settings", "override", "caBundle", "normal"];

/** `bytes` of text that is `i`'s alone (no two requests share a large string). */
export function uniqueText(i: number, bytes: number): string {
  const seed = createHash("sha256").update(String(i)).digest("hex");
  return `${i}-${seed.repeat(Math.ceil(bytes / seed.length))}`.slice(0, bytes);
}

const vllm = { provider: "vllm", endpoint: "http://vllm.models:8000", apiKey: { name: "creds", key: "token" } };
const creds = (): ReturnType<typeof stamped> => stamped(aSecret("creds", { token: "t0ken" }));

/** A parent with its own name and uid; stamped, so the memo may keep it. */
function parentOf(name: string, spec: object): ReturnType<typeof stamped> {
  const parent = stamped(aParent(spec, { name }));
  return { ...parent, metadata: { ...parent.metadata, uid: `uid-${name}` } };
}

/** A user's config.yaml of about CONFIGMAP_BYTES: a real config, with a long note the server ignores. */
export function overrideText(i: number): string {
  return [
    "version: 2",
    "distro_name: starter",
    "apis:",
    "- inference",
    "providers:",
    "  inference:",
    "  - provider_id: vllm",
    "    provider_type: remote::vllm",
    "    config:",
    "      base_url: http://vllm.models:8000/v1",
    `external_providers_dir: /tmp/${i}`,
    `# ${uniqueText(i, CONFIGMAP_BYTES)}`,
    "",
  ].join("\n");
}

/**
 * PEM text of about CONFIGMAP_BYTES: `i`'s own note (text outside PEM blocks, which a bundle may
 * carry) and 100 real certificates (parsing each costs about 0.15 ms, so the test stays short).
 */
export function caBundleText(i: number): string {
  const pem = [ROOT_CA, INTERMEDIATE_CA, RSA_CA, ODH_CA].join("").repeat(25);
  return `# ${uniqueText(i, CONFIGMAP_BYTES - pem.length)}\n${pem}`;
}

/** What the bundle holds once duplicates are dropped: its four certificates. */
export const CA_CERTIFICATES = 4;

/** Request number `i` of kind `kind`; a "normal" one is one of a few small parents, resynced unchanged. */
export function hostileRequest(kind: HostileKind, i: number): SyncRequest {
  const name = `${kind.toLowerCase()}-${i}`;
  const base = { distribution: { name: "starter" } };
  if (kind === "settings") {
    const spec = {
      ...base,
      providers: {
        inference: { ...vllm, settings: { network: { headers: { "x-notes": uniqueText(i, SETTINGS_BYTES) } } } },
      },
    };
    return aRequest(parentOf(name, spec), [], [creds()]);
  }
  if (kind === "override") {
    const spec = { ...base, overrideConfig: { configMapName: "own-config" } };
    return aRequest(parentOf(name, spec), [], [stamped(aConfigMap("own-config", { "config.yaml": overrideText(i) }))]);
  }
  if (kind === "caBundle") {
    const spec = {
      ...base,
      providers: { inference: vllm },
      networking: { tls: { caBundle: { configMapName: "corp-ca", configMapKeys: ["ca.crt"] } } },
    };
    return aRequest(parentOf(name, spec), [], [creds(), stamped(aConfigMap("corp-ca", { "ca.crt": caBundleText(i) }))]);
  }
  return aRequest(parentOf(`normal-${i % 8}`, { ...base, providers: { inference: vllm } }), [], [creds()]);
}
