/**
 * The customize hook: which Secrets and ConfigMaps (by name, in the parent's namespace) the
 * sync hook needs to see. It sees only the parent, so the rules depend only on its spec.
 */
import { validate } from "./api/validate";
import { configSource } from "./config/render";
import { REGISTRY_CREDENTIALS_LABEL } from "./sync/base-source";
import { ODH_TRUSTED_CA_BUNDLE } from "./sync/ca-bundle";
import { hubSpec } from "./sync/parent-version";
import { configMapNames, referencesOf, secretNames } from "./sync/references";
import type { CustomizeRequest, CustomizeResponse, RelatedResourceRule } from "./wire/metacontroller";

export function customize(request: CustomizeRequest): CustomizeResponse {
  const namespace = request.parent.metadata.namespace ?? "default";
  const checked = validate(hubSpec(request.parent));
  // An invalid spec references nothing we can trust; the sync hook reports why.
  if (!checked.spec) return { relatedResources: [] };
  const refs = referencesOf(checked.spec);
  const rules: RelatedResourceRule[] = [];
  const secrets = secretNames(refs, checked.spec);
  // The namespace's OpenDataHub trusted-CA ConfigMap joins the managed CA bundle when it exists
  // (as the Go operator does); a name that matches nothing is simply absent from `related`.
  const configMaps = [...new Set([...configMapNames(refs), ODH_TRUSTED_CA_BUNDLE])].sort();
  // An empty `names` would select every object of the kind: only emit rules that name something.
  if (configMaps.length > 0) rules.push({ apiVersion: "v1", resource: "configmaps", namespace, names: configMaps });
  if (secrets.length > 0) rules.push({ apiVersion: "v1", resource: "secrets", namespace, names: secrets });
  // Pull secrets cannot be found through the ServiceAccount in one step (customize sees only the
  // parent), so namespaces opt their dockerconfigjson Secrets in with a label. Base configs and
  // external providers' metadata are both read from images.
  if (configSource(checked.spec) === "generated" || checked.spec.externalProviders.length > 0) {
    rules.push({
      apiVersion: "v1",
      resource: "secrets",
      namespace,
      labelSelector: { matchLabels: { [REGISTRY_CREDENTIALS_LABEL]: "true" } },
    });
  }
  return { relatedResources: rules };
}

/** `customize` as the service calls it: a promise, rejected (not thrown) when it fails. */
export function customizeHook(request: CustomizeRequest): Promise<CustomizeResponse> {
  return new Promise((resolve) => resolve(customize(request)));
}
