/**
 * Is this parent a v1alpha1 CR (the Go operator's API), and what did it say that v1alpha2 has
 * no words for? Such a CR gets the Go operator's pod details for what it asked (docs/migrating-from-go-operator.md).
 *
 * Decision: a parent is a v1alpha1 CR when it carries the conversion annotation
 * `llamastack.io/v1alpha1-fields` (written by POST /convert when a v1alpha1 object is stored)
 * **and** it is still expressible in v1alpha1 — converting it back leaves nothing in
 * `llamastack.io/v1alpha2-fields`. So a CR that was written in v1alpha1 and later given
 * providers, storage or TLS serving in v1alpha2 is a v1alpha2 CR from then on; removing the
 * annotation opts a CR out. The absence of v1alpha2-only fields alone would not do: a minimal
 * v1alpha2 CR (`distribution` only) has none either, and it must keep v1alpha2 behaviour.
 */
import { own, isPlainObject } from "../json";
import { V1ALPHA1_FIELDS, V1ALPHA2_FIELDS } from "../conversion/annotations";
import { fromHub } from "../conversion/v1alpha1";
import { CONTAINER_NAME } from "../names";
import type { KubeObject } from "../wire/metacontroller";

/** What a v1alpha1 CR said beyond its v1alpha2 form (read from the v1alpha1 view of the CR). */
export interface LegacyV1alpha1 {
  /** `spec.server.containerSpec.name` (CRD default `llama-stack`). */
  readonly containerName: string;
  /** `spec.network` was given, even empty: the Go operator then admits the OpenShift router. */
  readonly networkSet: boolean;
  /** `spec.server.userConfig.configMapNamespace`, when given. */
  readonly userConfigNamespace?: string;
  /** `spec.server.tlsConfig.caBundle.configMapNamespace`, when given. */
  readonly caBundleNamespace?: string;
}

export const V1ALPHA1_PATHS = {
  userConfigNamespace: "spec.server.userConfig.configMapNamespace",
  caBundleNamespace: "spec.server.tlsConfig.caBundle.configMapNamespace",
} as const;

const text = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined);

export function legacyOf(parent: KubeObject): LegacyV1alpha1 | undefined {
  const annotations = parent.metadata.annotations;
  if (!isPlainObject(annotations) || own(annotations, V1ALPHA1_FIELDS) === undefined) return undefined;
  // Spec only: the status always holds fields v1alpha1 lacks (configGeneration, …).
  const converted = fromHub({
    apiVersion: parent.apiVersion,
    kind: parent.kind,
    metadata: { name: parent.metadata.name, annotations },
    spec: parent.spec,
  });
  if (!converted.ok) return undefined;
  if (own(converted.object.metadata.annotations, V1ALPHA2_FIELDS) !== undefined) return undefined;
  const spec = converted.object.spec;
  const server = own(spec, "server");
  const userConfigNamespace = text(own(own(server, "userConfig"), "configMapNamespace"));
  const caBundleNamespace = text(own(own(own(server, "tlsConfig"), "caBundle"), "configMapNamespace"));
  return {
    containerName: text(own(own(server, "containerSpec"), "name")) ?? CONTAINER_NAME,
    networkSet: isPlainObject(own(spec, "network")),
    ...(userConfigNamespace !== undefined ? { userConfigNamespace } : {}),
    ...(caBundleNamespace !== undefined ? { caBundleNamespace } : {}),
  };
}
