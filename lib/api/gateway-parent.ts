/**
 * The hooks' default Gateway (`LLSD_GATEWAY_PARENT=namespace/name[/sectionName]`): the parent
 * an exposed LLSD's HTTPRoute attaches to when its spec names none. v1alpha1 CRs cannot name
 * `parentRefs` at all, so without it a gateway install refuses every exposed v1alpha1 CR.
 */
import type { CanonicalSpec } from "./canonical";
import type { ExposeWith, GatewayParentRefInput } from "./expose-types";

/** A DNS-1123 label (a namespace); a subdomain is labels joined by dots (a Gateway, a listener). */
const LABEL = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";
const NAMESPACE = new RegExp(`^${LABEL}$`);
const SUBDOMAIN = new RegExp(`^(?=.{1,253}$)${LABEL}(\\.${LABEL})*$`);

export const GATEWAY_PARENT_FORM = "namespace/name[/sectionName] (e.g. gateways/public/https)";

/** The parent the text names, or undefined when it is not of that form. */
export function parseGatewayParent(text: string): GatewayParentRefInput | undefined {
  const [namespace, name, sectionName, ...rest] = text.split("/");
  if (rest.length > 0 || namespace === undefined || name === undefined) return undefined;
  if (!NAMESPACE.test(namespace) || !SUBDOMAIN.test(name)) return undefined;
  if (sectionName === undefined) return { name, namespace };
  return SUBDOMAIN.test(sectionName) ? { name, namespace, sectionName } : undefined;
}

/** How the hooks expose servers: the kind, and the default Gateway of a `gateway` install. */
export interface ExposeSettings {
  readonly exposeWith?: ExposeWith;
  readonly gatewayParent?: GatewayParentRefInput;
}

/** The spec with the default Gateway as its `parentRefs` where a gateway exposure names none; else the spec itself. */
export function withGatewayParent(spec: CanonicalSpec, settings: ExposeSettings): CanonicalSpec {
  const { expose } = spec.networking;
  const parent = settings.gatewayParent;
  if (parent === undefined || settings.exposeWith !== "gateway" || !expose.enabled || expose.parentRefs !== undefined)
    return spec;
  return { ...spec, networking: { ...spec.networking, expose: { ...expose, parentRefs: [parent] } } };
}
