/**
 * A JSON Schema of the CompositeController hook fields the manifests use, written from the Go
 * types of Metacontroller v4.17.2 — the version docs/install.md installs —
 * `pkg/apis/metacontroller/v1alpha1/types.go` of github.com/metacontroller/metacontroller:
 * `Hook` {version, webhook}, `Webhook` {url, timeout, etag, path, service,
 * responseUnMarshallMode, caBundle, clientTLS, authorization, basicAuth}, `CABundle` (exactly
 * one of inline, secretRef, configMapRef), `ResourceKeyRef` {name, namespace, key = ca.crt},
 * `ClientTLS` {secretRef {name, namespace}, certKey = tls.crt, privateKeyKey = tls.key},
 * `Authorization` {type = Bearer, secretRef {name, namespace, key}}, `BasicAuth`. Unknown fields
 * are refused: Metacontroller's CRD prunes them, so a misspelt one would silently do nothing.
 */
const strictObject = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  additionalProperties: false,
  properties,
  required,
});

const name = { type: "string", minLength: 1 };
const secretRef = strictObject({ name, namespace: name }, ["name", "namespace"]);
const secretKeyRef = strictObject({ name, namespace: name, key: name }, ["name", "namespace", "key"]);
const resourceKeyRef = strictObject({ name, namespace: name, key: name }, ["name", "namespace"]);

const caBundle = {
  ...strictObject({ inline: { type: "string" }, secretRef: resourceKeyRef, configMapRef: resourceKeyRef }),
  oneOf: ["inline", "secretRef", "configMapRef"].map((k) => ({ required: [k] })),
};

export const WEBHOOK_SCHEMA = strictObject({
  url: { type: "string" },
  timeout: { type: "string", pattern: "^([0-9]+(\\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$" }, // a Go duration
  etag: strictObject({
    enabled: { type: "boolean" },
    cacheTimeoutSeconds: { type: "integer" },
    cacheCleanupSeconds: { type: "integer" },
  }),
  path: { type: "string" },
  service: strictObject({ name, namespace: name, port: { type: "integer" }, protocol: { type: "string" } }, [
    "name",
    "namespace",
  ]),
  responseUnMarshallMode: { enum: ["loose", "strict"] },
  caBundle,
  clientTLS: strictObject({ secretRef, certKey: name, privateKeyKey: name }, ["secretRef"]),
  authorization: strictObject(
    { type: { type: "string", not: { pattern: "^[Bb][Aa][Ss][Ii][Cc]$" } }, secretRef: secretKeyRef },
    ["secretRef"],
  ),
  basicAuth: strictObject({ secretRef, usernameKey: name, passwordKey: name }, ["secretRef"]),
});

/** `Hook` {version (v1 or v2), webhook}; a webhook's authorization and basicAuth exclude each other. */
export const HOOK_SCHEMA = strictObject({
  version: { enum: ["v1", "v2"] },
  webhook: { ...WEBHOOK_SCHEMA, not: { required: ["authorization", "basicAuth"] } },
});

/** The default of each `+kubebuilder:default` the manifests rely on. */
export const WEBHOOK_DEFAULTS = Object.freeze({
  caBundleKey: "ca.crt",
  clientCertKey: "tls.crt",
  clientKeyKey: "tls.key",
  authorizationType: "Bearer",
});
