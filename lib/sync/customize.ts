/**
 * The customize hook: which Secrets and ConfigMaps (by name, in the parent's namespace) the
 * sync hook needs to see. It sees only the parent, so the rules depend only on its spec.
 */
import { normalizedSpec } from "../api/validate";
import { configSource } from "../config/render";
import { apiServerRule } from "./api-server";
import { REGISTRY_CREDENTIALS_LABEL } from "./base-source";
import { ODH_TRUSTED_CA_BUNDLE } from "./ca-bundle";
import { hubSpec } from "./parent-version";
import { configMapNames, referencesOf, secretNames } from "./references";
import type { CustomizeRequest, CustomizeResponse, RelatedResourceRule } from "../wire/metacontroller";

export function customize(request: CustomizeRequest): CustomizeResponse {
  const namespace = request.parent.metadata.namespace ?? "default";
  // What the spec names is all customize needs: its problems are the sync hook's to report. A
  // spec the schema refuses references nothing we can trust.
  const spec = normalizedSpec(hubSpec(request.parent));
  if (!spec) return { relatedResources: [] };
  const refs = referencesOf(spec);
  const rules: RelatedResourceRule[] = [];
  const secrets = secretNames(refs, spec);
  // The namespace's OpenDataHub trusted-CA ConfigMap joins the managed CA bundle when it exists
  // (as the Go operator does); a name that matches nothing is simply absent from `related`.
  const configMaps = [...new Set([...configMapNames(refs), ODH_TRUSTED_CA_BUNDLE])].sort();
  // An empty `names` would select every object of the kind: only emit rules that name something.
  if (configMaps.length > 0) rules.push({ apiVersion: "v1", resource: "configmaps", namespace, names: configMaps });
  if (secrets.length > 0) rules.push({ apiVersion: "v1", resource: "secrets", namespace, names: secrets });
  // Pull secrets cannot be found through the ServiceAccount in one step (customize sees only the
  // parent), so namespaces opt their dockerconfigjson Secrets in with a label. Base configs (but
  // a baseConfig ConfigMap's) and external providers' metadata are both read from images.
  const readsBase = configSource(spec) === "generated" && !spec.baseConfig;
  if (readsBase || spec.externalProviders.length > 0) {
    rules.push({
      apiVersion: "v1",
      resource: "secrets",
      namespace,
      labelSelector: { matchLabels: { [REGISTRY_CREDENTIALS_LABEL]: "true" } },
    });
  }
  rules.push(...apiServerRule(spec));
  return { relatedResources: rules };
}

/** `customize` as the service calls it: a promise, rejected (not thrown) when it fails. */
export function customizeHook(request: CustomizeRequest): Promise<CustomizeResponse> {
  return new Promise((resolve) => resolve(customize(request)));
}
