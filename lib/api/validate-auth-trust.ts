/**
 * `auth.upstreamHeader` makes the server believe whatever its principal header says: the
 * server's `upstream_header` provider (core/server/auth_providers.py) checks nothing, so any
 * caller that reaches the server names its own identity. Only the gateway that authenticates
 * callers and writes those headers may reach it, which is what the NetworkPolicy then admits
 * (lib/children/network-policy.ts). Every spec that lets someone else reach the server is
 * refused here, with the fix: expose the gateway, not the server, and name the gateway in
 * networking.allowedFrom (docs/auth.md, "Behind a gateway").
 */
import { listenPort } from "../defaults";
import { child, fieldError, type FieldError } from "../errors";
import { SERVICE_PORT_NAME } from "../names";
import type { CanonicalSpec } from "./canonical";
import type { NetworkPolicyIngressRuleInput, NetworkPolicyPeerInput } from "./v1alpha2-network-policy";

const NETWORKING = "spec.networking";
const ALLOWED_FROM = `${NETWORKING}.allowedFrom`;
const GATEWAY_FIX = `name the gateway's namespace in ${ALLOWED_FROM}.namespaces`;

/** The spec's upstreamHeader provider, when it has one. */
export function trustsHeaders(spec: CanonicalSpec): boolean {
  return spec.auth?.input.upstreamHeader !== undefined;
}

/** Why the server must be reached by the gateway only, naming who configured the header and which header it is. */
export function forgeable(source: string, header: string): string {
  return `${source} the server believes the ${header} header without any check, so whoever reaches it names their own identity`;
}

function reasonOf(spec: CanonicalSpec): string {
  return forgeable("with spec.auth.upstreamHeader", spec.auth?.input.upstreamHeader?.principalHeader ?? "");
}

/** A rule that covers the server's own port (the metrics port serves no API). */
function coversServerPort(spec: CanonicalSpec, rule: NetworkPolicyIngressRuleInput): boolean {
  const port = listenPort(spec.networking.port);
  if (!rule.ports || rule.ports.length === 0) return true;
  return rule.ports.some((p) => {
    if (p.port === undefined || p.port === SERVICE_PORT_NAME) return true;
    if (typeof p.port === "string") return false;
    return p.port === port || (p.endPort !== undefined && p.port <= port && port <= p.endPort);
  });
}

/** A peer any namespace can join: every namespace (`{}`), or every address (`/0`). */
function everyone(peer: NetworkPolicyPeerInput): boolean {
  const ns = peer.namespaceSelector;
  const anyNamespace = ns !== undefined && !ns.matchLabels && !(ns.matchExpressions ?? []).length;
  return anyNamespace || (peer.ipBlock?.cidr.endsWith("/0") ?? false);
}

function ingressErrors(spec: CanonicalSpec, reason: string): FieldError[] {
  const rules = spec.networking.policy?.ingress ?? [];
  return rules.flatMap((rule, i) => {
    const at = `${NETWORKING}.policy.ingress[${i}]`;
    if (!coversServerPort(spec, rule)) return [];
    if (!rule.from || rule.from.length === 0)
      return [
        fieldError(
          at,
          `a rule without from admits every source to the server's port; ${reason}: select the gateway's pods or namespace in from`,
        ),
      ];
    return rule.from.flatMap((peer, j) =>
      everyone(peer)
        ? [
            fieldError(
              child(`${at}.from`, j),
              `this peer admits every namespace; ${reason}: select the gateway's namespace by its labels`,
            ),
          ]
        : [],
    );
  });
}

/** Who besides the gateway would reach the server: exposure, no policy, every namespace or source. */
export function gatewayBypasses(spec: CanonicalSpec, reason: string): FieldError[] {
  const { expose, policy, allowedFrom } = spec.networking;
  const errors: FieldError[] = [];
  if (expose.enabled)
    errors.push(
      fieldError(
        `${NETWORKING}.expose`,
        `${reason}, and exposing the server lets anyone outside the cluster send it: expose the gateway that sets the headers, not the server (remove expose), and ${GATEWAY_FIX}`,
      ),
    );
  if (policy?.enabled === false)
    errors.push(
      fieldError(
        `${NETWORKING}.policy.enabled`,
        `${reason}, and without a NetworkPolicy every pod of the cluster reaches it: remove enabled: false, and ${GATEWAY_FIX}`,
      ),
    );
  (allowedFrom?.namespaces ?? []).forEach((ns, i) => {
    if (ns === "*")
      errors.push(
        fieldError(
          `${ALLOWED_FROM}.namespaces[${i}]`,
          `"*" admits every namespace; ${reason}: list only the gateway's namespace`,
        ),
      );
  });
  return policy?.enabled === false ? errors : errors.concat(ingressErrors(spec, reason));
}

/** Who besides the gateway would reach a spec.auth.upstreamHeader server, or that nobody could. */
export function upstreamHeaderExposure(spec: CanonicalSpec): FieldError[] {
  if (!trustsHeaders(spec)) return [];
  return gatewayBypasses(spec, reasonOf(spec)).concat(nobodyErrors(spec));
}

/** With the policy on and no peer named, only the hooks reach the server: nobody could call it. */
function nobodyErrors(spec: CanonicalSpec): FieldError[] {
  const { policy, allowedFrom } = spec.networking;
  const named = [...(allowedFrom?.namespaces ?? []), ...(allowedFrom?.labels ?? []), ...(policy?.ingress ?? [])];
  if (policy?.enabled === false || named.length > 0) return [];
  return [
    fieldError(
      ALLOWED_FROM,
      `with spec.auth.upstreamHeader the NetworkPolicy admits only the gateway that sets the headers, and none is named, so nobody could call the server: ${GATEWAY_FIX} (or add a networking.policy.ingress rule selecting its pods)`,
    ),
  ];
}
