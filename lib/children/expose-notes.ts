/**
 * The status notes of `networking.expose`: edge fields the chosen exposure kind does not read,
 * and what the hooks cannot see of a Gateway (its listener's TLS, where its proxies run).
 * Pure functions of the same inputs the exposing children are built from.
 */
import type { Expose } from "../api/canonical";
import type { ExposeWith } from "../api/expose-types";
import type { ChildContext } from "./context";
import { policyEnabled } from "./network-policy";

const PATH = "networking.expose";

/** The edge fields each kind leaves unread, with what to do instead. */
const UNREAD: { readonly [K in ExposeWith]: readonly (readonly [keyof Expose, string])[] } = {
  ingress: [
    ["parentRefs", "they name Gateways, and these hooks expose through an Ingress"],
    ["backendTLS", "it configures a Gateway, and these hooks expose through an Ingress"],
  ],
  route: [
    ["className", "a Route has no class"],
    [
      "tls",
      "the Route terminates TLS with the router's certificate (edge), or passes it to the server (passthrough, with networking.tls)",
    ],
    ["parentRefs", "they name Gateways, and these hooks expose through an OpenShift Route"],
    ["backendTLS", "it configures a Gateway, and these hooks expose through an OpenShift Route"],
  ],
  gateway: [
    ["className", "an HTTPRoute has no class: its parentRefs choose the Gateway"],
    [
      "tls",
      "TLS at the edge is the Gateway listener's (protocol HTTPS with certificateRefs; cert-manager annotates the Gateway)",
    ],
  ],
};

export const GATEWAY_LISTENER_NOTE = `${PATH}: spec.auth is set and the HTTPRoute carries bearer tokens through the Gateway: the hooks cannot see whether its listener is HTTPS; attach to an HTTPS listener (parentRefs[].sectionName) so tokens never cross the edge in clear text`;

export const GATEWAY_POLICY_NOTE = `${PATH}: the NetworkPolicy admits the namespaces of the parentRefs' Gateways; a Gateway implementation whose proxies run in another namespace needs that namespace in networking.allowedFrom.namespaces`;

export function exposeNotes(ctx: Pick<ChildContext, "spec" | "exposeWith" | "keptOpen">): string[] {
  const expose = ctx.spec.networking.expose;
  if (!expose.enabled) return [];
  const notes = UNREAD[ctx.exposeWith]
    .filter(([field]) => expose[field] !== undefined)
    .map(([field, why]) => `${PATH}.${field} is not used: ${why}`);
  if (ctx.exposeWith !== "gateway") return notes;
  if (ctx.spec.auth !== undefined) notes.push(GATEWAY_LISTENER_NOTE);
  if (!ctx.keptOpen && policyEnabled(ctx)) notes.push(GATEWAY_POLICY_NOTE);
  return notes;
}
