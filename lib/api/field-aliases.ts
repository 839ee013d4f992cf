/**
 * Names users bring from the objects a field writes (the Ingress, cert-manager, the Gateway
 * API), too far from ours for did-you-mean's typo distance (lib/suggest.ts): at each object, by
 * the last segments of its schema path, the field to write instead. Keys are lower case: the
 * name is looked up case-insensitively, as did-you-mean compares names.
 */
type Aliases = { readonly [name: string]: string };

/** What follows "did you mean": the field, quoted, and the question mark. */
const field = (name: string): string => `"${name}"?`;

const EXPOSE: Aliases = {
  ingressclassname: `${field("className")} (it becomes the Ingress's ingressClassName)`,
  ingressclass: field("className"),
  class: field("className"),
  tlssecret: field("tls: {secretName}"),
  tlssecretname: field("tls: {secretName}"),
  clusterissuer: field("tls: {issuer: {name, kind: ClusterIssuer}}"),
  host: field("hostname"),
  hosts: field("hostname"),
  hostnames: field("hostname"),
  gateway: field("parentRefs"),
  gateways: field("parentRefs"),
  gatewayref: field("parentRefs"),
};

const ALIASES: readonly (readonly [string, Aliases])[] = [["/networking/expose", EXPOSE]];

/** ` did you mean "x"?` for a name another API uses at this object (its ajv instance path), else "". */
export function aliasHint(instancePath: string, unknown: string): string {
  const name = unknown.toLowerCase();
  for (const [at, aliases] of ALIASES)
    if (instancePath.endsWith(at) && Object.hasOwn(aliases, name)) return ` did you mean ${aliases[name]}`;
  return "";
}
