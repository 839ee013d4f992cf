/**
 * `networking.policy` rules become the server's NetworkPolicy as written, and the apiserver
 * refuses a policy it finds invalid: Metacontroller then cannot apply it and the CR is stuck.
 * So the checks the apiserver makes on a NetworkPolicy's rules run here first, with the field
 * path the user wrote (apimachinery's ValidateNetworkPolicyPeer/Port, label selectors, CIDRs).
 */
import { METRICS_PORT_NAME, metricsOn } from "../distributions/monitoring";
import { fieldError, listOf, type FieldError } from "../errors";
import { SERVICE_PORT_NAME } from "../names";
import { meant } from "../suggest";
import type { CanonicalSpec } from "./canonical";
import { inCidr, parseCidr } from "./cidr";
import { isLabelKey, isLabelValue } from "./validate-allowed-from";
import type { IpBlock, LabelSelector, NetworkPolicyPeerInput, NetworkPolicyPortInput } from "./v1alpha2-network-policy";

const PATH = "spec.networking.policy";

/**
 * The server container's named ports, which an ingress rule may name. A seam for
 * `monitoring`, whose metrics port is a second named port.
 */
export function serverPortNames(spec: CanonicalSpec): string[] {
  return metricsOn(spec.monitoring) ? [SERVICE_PORT_NAME, METRICS_PORT_NAME] : [SERVICE_PORT_NAME];
}

/** apimachinery's IsValidPortName (IANA_SVC_NAME). */
const PORT_NAME = /^(?=.*[a-z])(?!.*--)[a-z0-9]([a-z0-9-]{0,13}[a-z0-9])?$/;

function selectorErrors(path: string, selector: LabelSelector | undefined): FieldError[] {
  if (!selector) return [];
  const errors: FieldError[] = [];
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if (!isLabelKey(key))
      errors.push(
        fieldError(
          `${path}.matchLabels`,
          `${JSON.stringify(key)} is not a label key; write e.g. "app" or "example.com/team"`,
        ),
      );
    else if (!isLabelValue(value))
      errors.push(
        fieldError(
          `${path}.matchLabels.${key}`,
          `${JSON.stringify(value)} is not a label value: at most 63 letters, digits, "-", "_" and ".", starting and ending with a letter or digit`,
        ),
      );
  }
  (selector.matchExpressions ?? []).forEach((e, i) => {
    const at = `${path}.matchExpressions[${i}]`;
    const needsValues = e.operator === "In" || e.operator === "NotIn";
    const count = e.values?.length ?? 0;
    if (!isLabelKey(e.key)) errors.push(fieldError(`${at}.key`, `${JSON.stringify(e.key)} is not a label key`));
    if (needsValues && count === 0)
      errors.push(fieldError(`${at}.values`, `operator ${e.operator} needs at least one value; or use Exists`));
    if (!needsValues && count > 0)
      errors.push(fieldError(`${at}.values`, `operator ${e.operator} takes no values; remove them, or use In`));
  });
  return errors;
}

function ipBlockErrors(path: string, block: IpBlock): FieldError[] {
  const range = parseCidr(block.cidr);
  if (!range)
    return [
      fieldError(
        `${path}.cidr`,
        `${JSON.stringify(block.cidr)} is not a CIDR; write e.g. "10.0.0.0/16" or "2001:db8::/64"`,
      ),
    ];
  return (block.except ?? []).flatMap((cidr, i) => {
    const inner = parseCidr(cidr);
    if (inner && inner.prefix > range.prefix && inCidr(inner.address, block.cidr)) return [];
    return [
      fieldError(`${path}.except[${i}]`, `${JSON.stringify(cidr)} must be a CIDR strictly inside cidr ${block.cidr}`),
    ];
  });
}

function peerErrors(path: string, peer: NetworkPolicyPeerInput): FieldError[] {
  const selectors = peer.podSelector !== undefined || peer.namespaceSelector !== undefined;
  if (peer.ipBlock && selectors)
    return [
      fieldError(path, "ipBlock cannot be combined with podSelector or namespaceSelector; write them as two peers"),
    ];
  if (!peer.ipBlock && !selectors)
    return [
      fieldError(
        path,
        "a peer needs podSelector, namespaceSelector or ipBlock; to allow every source or destination, leave the list out",
      ),
    ];
  return [
    ...selectorErrors(`${path}.podSelector`, peer.podSelector),
    ...selectorErrors(`${path}.namespaceSelector`, peer.namespaceSelector),
    ...(peer.ipBlock ? ipBlockErrors(`${path}.ipBlock`, peer.ipBlock) : []),
  ];
}

function namedPortErrors(
  path: string,
  port: NetworkPolicyPortInput & { port: string },
  names?: readonly string[],
): FieldError[] {
  const p = port.port;
  if (port.endPort !== undefined) return [fieldError(`${path}.endPort`, "endPort needs a numeric port")];
  if (!PORT_NAME.test(p))
    return [
      fieldError(
        `${path}.port`,
        `${JSON.stringify(p)} is not a port name (1-15 lowercase letters, digits and "-"); or write a number`,
      ),
    ];
  if (names && !names.includes(p))
    return [
      fieldError(
        `${path}.port`,
        `the server has no port named "${p}"${meant(p, names, `; its ports are ${listOf(names)}`)}`,
      ),
    ];
  return [];
}

/** `names`: the port names a rule may use (ingress: the server's own), or undefined for any valid name. */
function portErrors(path: string, port: NetworkPolicyPortInput, names?: readonly string[]): FieldError[] {
  const p = port.port;
  if (typeof p === "string") return namedPortErrors(path, { ...port, port: p }, names);
  if (p !== undefined && (!Number.isInteger(p) || p < 1 || p > 65535))
    return [fieldError(`${path}.port`, `${p} is not a port: write 1 to 65535`)];
  if (port.endPort === undefined) return [];
  if (p === undefined) return [fieldError(`${path}.endPort`, "endPort needs port, the first port of the range")];
  return port.endPort < p ? [fieldError(`${path}.endPort`, `endPort ${port.endPort} is below port ${p}`)] : [];
}

function ruleErrors(
  path: string,
  rule: { readonly ports?: readonly NetworkPolicyPortInput[] },
  peers: readonly NetworkPolicyPeerInput[],
  names?: readonly string[],
): FieldError[] {
  const side = path.includes(".ingress[") ? "from" : "to";
  return [
    ...peers.flatMap((peer, i) => peerErrors(`${path}.${side}[${i}]`, peer)),
    ...(rule.ports ?? []).flatMap((port, i) => portErrors(`${path}.ports[${i}]`, port, names)),
  ];
}

export function networkPolicyRules(spec: CanonicalSpec): FieldError[] {
  const policy = spec.networking.policy;
  if (!policy) return [];
  const names = serverPortNames(spec);
  return [
    ...(policy.ingress ?? []).flatMap((r, i) => ruleErrors(`${PATH}.ingress[${i}]`, r, r.from ?? [], names)),
    ...(policy.egress ?? []).flatMap((r, i) => ruleErrors(`${PATH}.egress[${i}]`, r, r.to ?? [])),
  ];
}

/** Rules beside `enabled: false` do nothing: say so rather than drop them silently. */
export function networkPolicyWarnings(spec: CanonicalSpec): FieldError[] {
  const policy = spec.networking.policy;
  if (policy?.enabled !== false) return [];
  return (["defaultIngress", "ingress", "egress"] as const)
    .filter((side) => policy[side] !== undefined)
    .map((side) =>
      fieldError(`${PATH}.${side}`, `ignored while ${PATH}.enabled is false; remove it, or remove enabled: false`),
    );
}
