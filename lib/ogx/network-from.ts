/**
 * An OGXServer's `network`, `tls` and `monitoring` → our `networking` and `monitoring`, keeping
 * what the peer's server does (ogx-ai/ogx-k8s-operator controllers/ at commit 1784464): its
 * `network.tls` is never read (no TLS serving), its hostname is ignored, its monitoring is on
 * unless `enabled: false`.
 */
import { asList, compact, compactOrNone, type Notes } from "./json";
import { isPlainObject, type JsonMap, own } from "../json";

/** `caCertificates[{name, key}]` → `caBundle`: one ConfigMap as an object, several as a list, keys in order. */
function caBundle(certificates: unknown): JsonMap | JsonMap[] | undefined {
  const bundles: JsonMap[] = [];
  for (const ref of asList(certificates)) {
    const name = own(ref, "name");
    const key = own(ref, "key");
    const found = bundles.find((b) => b.configMapName === name);
    if (found && Array.isArray(found.configMapKeys)) found.configMapKeys.push(key);
    else bundles.push({ configMapName: name, configMapKeys: [key] });
  }
  if (bundles.length === 0) return undefined;
  return bundles.length === 1 ? bundles[0] : bundles;
}

function exposeOf(access: unknown, notes: Notes): boolean | undefined {
  if (own(access, "hostname") !== undefined)
    notes.warn(
      "spec.network.externalAccess.hostname",
      "not converted (kept in the annotation): the peer ignores it; llsd-hooks would put it on the Ingress or Route (set networking.expose.hostname to use it)",
    );
  return own(access, "enabled") === true ? true : undefined;
}

/**
 * The peer's non-empty ingress rules replace all of its defaults (same namespace, operator,
 * router, monitoring): `defaultIngress: false` keeps that meaning. Its egress rules apply only
 * beside them, with no DNS rule.
 */
function policyOf(policy: unknown, notes: Notes): JsonMap | undefined {
  if (!isPlainObject(policy)) return undefined;
  if (policy.policyTypes !== undefined)
    notes.warn("spec.network.policy.policyTypes", "not converted (kept in the annotation): the peer ignores it too");
  const replaces = asList(policy.ingress).length > 0;
  if (replaces)
    notes.warn(
      "spec.network.policy.ingress",
      "written with defaultIngress: false; llsd-hooks also admits its own namespace (status reads), expose's ingress controllers and the metrics scrapers, where the peer admits only these rules",
    );
  if (policy.egress !== undefined)
    notes.warn(
      "spec.network.policy.egress",
      replaces
        ? "llsd-hooks adds DNS to the cluster resolver and what the server needs; the peer adds no DNS rule"
        : "llsd-hooks applies egress rules on their own and adds DNS; the peer applies them only beside ingress rules",
    );
  return compactOrNone([
    ["enabled", policy.enabled === false ? false : undefined],
    ["defaultIngress", replaces ? false : undefined],
    ["ingress", policy.ingress],
    ["egress", policy.egress],
  ]);
}

export function networkFromOgx(spec: JsonMap, notes: Notes): JsonMap | undefined {
  const network = own(spec, "network");
  if (own(network, "tls") !== undefined)
    notes.warn(
      "spec.network.tls",
      "not converted (kept in the annotation): the peer never serves TLS with it; set networking.tls.enabled and secretName to serve TLS with llsd-hooks",
    );
  const identity = own(own(spec, "tls"), "identity");
  if (identity !== undefined)
    notes.warn("spec.tls.identity", "not converted (kept in the annotation): neither operator uses a client identity");
  const ca = caBundle(own(own(own(spec, "tls"), "trust"), "caCertificates"));
  return compactOrNone([
    ["port", own(network, "port")],
    ["tls", ca ? { caBundle: ca } : undefined],
    ["expose", exposeOf(own(network, "externalAccess"), notes)],
    ["policy", policyOf(own(network, "policy"), notes)],
  ]);
}

export function monitoringFromOgx(monitoring: unknown, notes: Notes): JsonMap {
  if (monitoring === undefined) {
    notes.warn(
      "spec.monitoring",
      "written as enabled: true: the peer turns metrics on when spec.monitoring is absent, llsd-hooks only when it is set",
    );
    return { enabled: true };
  }
  return compact([
    ["enabled", own(monitoring, "enabled")],
    ["port", own(monitoring, "metricsPort")],
  ]);
}
