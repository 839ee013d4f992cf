/**
 * Names and labels of everything the hooks create for a parent, in one place.
 * Names and selector labels follow the Go operator, so a takeover keeps selectors (docs/migrating-from-go-operator.md).
 */

import { createHash } from "node:crypto";
import { fieldError, type FieldError } from "./errors";

export const CONTAINER_NAME = "llama-stack";
/** The init container that pip-installs every external provider's wheels (after their copy containers). */
export const EXTERNAL_INSTALL_CONTAINER = "install-ext-providers";

/**
 * The init container that copies one external provider's wheels: `ext-<providerId>` when that
 * is a DNS label, else a slug of the id plus 8 hex of its SHA-256 (still unique, still ≤ 63).
 */
export function externalProviderContainer(providerId: string): string {
  const plain = `ext-${providerId}`;
  if (/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(plain) && plain.length <= 63) return plain;
  const slug = providerId
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 45)
    .replace(/-+$/, "");
  const hash = createHash("sha256").update(providerId).digest("hex").slice(0, 8);
  return slug === "" ? `ext-${hash}` : `ext-${slug}-${hash}`;
}
export const SERVICE_PORT_NAME = "http";

export const names = {
  deployment: (parent: string): string => parent,
  service: (parent: string): string => `${parent}-service`,
  /** Hash-named and immutable: a new config is a new ConfigMap; pods mid-rollout keep the one they mount (docs/design.md). */
  config: (parent: string, hash: string): string => `${parent}-config-${hash.slice(0, 10)}`,
  pvc: (parent: string): string => `${parent}-pvc`,
  networkPolicy: (parent: string): string => `${parent}-network-policy`,
  ingress: (parent: string): string => `${parent}-ingress`,
  /** The OpenShift Route, or the Gateway API HTTPRoute (one exposure kind per install). */
  route: (parent: string): string => `${parent}-route`,
  /** The Secret cert-manager writes for the Ingress when `expose.tls` names only an issuer. */
  ingressTls: (parent: string): string => `${parent}-ingress-tls`,
  /** The BackendTLSPolicy a Gateway exposure of a TLS server needs. */
  backendTls: (parent: string): string => `${parent}-backend-tls`,
  hpa: (parent: string): string => `${parent}-hpa`,
  pdb: (parent: string): string => `${parent}-pdb`,
  caBundle: (parent: string): string => `${parent}-ca-bundle`,
  postgres: (parent: string): string => `${parent}-postgres`,
  serviceMonitor: (parent: string): string => `${parent}-service-monitor`,
};

/** The in-cluster URL of a server's Service: what live status asks and `status.serviceURL` shows. */
export function serviceDnsUrl(name: string, namespace: string, port: number, tls = false): string {
  return `${tls ? "https" : "http"}://${names.service(name)}.${namespace}.svc.cluster.local:${port}`;
}

/** Derived Secret holding the discrete parts of the user's Postgres DSN. */
export function postgresSecretName(parent: string): string {
  return names.postgres(parent);
}

/**
 * The Deployment's selector and pod labels; every Service, NetworkPolicy and PDB selects with these.
 * A fresh object per call, the caller's to keep: no two children share a mutable labels object.
 * `app` is `llama-stack`, except for a Deployment taken over from the OGX operator (`OGX_APP`).
 */
export function selectorLabels(parent: string, app = "llama-stack"): { [k: string]: string } {
  return { app, "app.kubernetes.io/instance": parent };
}

/**
 * The OGX operator (ogx.io OGXServer) selects its pods with `app: ogx` and names their container
 * `ogx`; a Deployment taken over from it keeps both (its selector is immutable, and
 * Metacontroller's first apply merges containers by name). docs/migrating-from-ogxserver.md.
 */
export const OGX_APP = "ogx";
export const OGX_CONTAINER_NAME = "ogx";

/** Labels on every child (Metacontroller adds `controller-uid` itself under generateSelector); a fresh object per call. */
export function commonLabels(parent: string): { [k: string]: string } {
  // The selector labels written out (same keys, same order): a literal is much cheaper than a
  // spread, and this runs several times per child on every sync.
  return {
    app: "llama-stack",
    "app.kubernetes.io/instance": parent,
    "app.kubernetes.io/name": "llama-stack",
    "app.kubernetes.io/part-of": "llama-stack",
    "app.kubernetes.io/managed-by": "llsd-hooks",
  };
}

/**
 * CR annotation: `"true"` lets the hooks delete the PVC once `workload.storage` is gone from the
 * spec. Without it the PVC (and its data) stays, unmounted, until the user says so.
 */
export const RELEASE_STORAGE_ANNOTATION = "llamastack.io/release-storage";

/** Pod-template annotation that changes with the config content, so a new config rolls the pods. */
export const CONFIG_HASH_ANNOTATION = "llamastack.io/config-hash";

/**
 * Deployment annotation (on the Deployment, not its pods: writing it restarts nothing): a hash of
 * the Deployment spec the hooks asked for. The observed Deployment carries it once Metacontroller
 * applied that spec, which is how the status tells a finished rollout of the current spec from a
 * finished rollout of an older one (the `Ready` condition).
 */
export const DEPLOYMENT_SPEC_HASH_ANNOTATION = "llamastack.io/deployment-spec-hash";

// ---------------------------------------------------------------------------------------------
// Limits: every name and label value above, checked against what Kubernetes accepts for it.

/** The formats Kubernetes checks names and label values with (apimachinery validation). */
export const NAME_FORMATS = {
  "DNS-1035 label": {
    max: 63,
    pattern: /^[a-z]([-a-z0-9]*[a-z0-9])?$/,
    shape: "lowercase letters, digits and '-', starting with a letter",
  },
  "DNS-1123 label": { max: 63, pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, shape: "lowercase letters, digits and '-'" },
  "DNS-1123 subdomain": {
    max: 253,
    pattern: /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/,
    shape: "lowercase letters, digits, '-' and '.'",
  },
  "label value": {
    max: 63,
    pattern: /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/,
    shape: "letters, digits, '-', '_' and '.'",
  },
} as const;
export type NameFormat = keyof typeof NAME_FORMATS;

/** The longest ConfigMap name: a full hash (the name keeps 10 characters of it). */
const ANY_HASH = "0".repeat(64);

export interface DerivedName {
  readonly what: string;
  readonly format: NameFormat;
  readonly of: (parent: string) => string;
}

/**
 * What each derived name is, the format its kind requires, and how it is made. Keyed like
 * `names`, so a new name cannot be added without its rule (the compiler says so).
 */
const NAME_RULES: { readonly [K in keyof typeof names]: DerivedName } = {
  deployment: { what: "Deployment", format: "DNS-1123 subdomain", of: names.deployment },
  service: { what: "Service", format: "DNS-1035 label", of: names.service },
  config: { what: "ConfigMap", format: "DNS-1123 subdomain", of: (parent) => names.config(parent, ANY_HASH) },
  pvc: { what: "PersistentVolumeClaim", format: "DNS-1123 subdomain", of: names.pvc },
  networkPolicy: { what: "NetworkPolicy", format: "DNS-1123 subdomain", of: names.networkPolicy },
  ingress: { what: "Ingress", format: "DNS-1123 subdomain", of: names.ingress },
  route: { what: "Route", format: "DNS-1123 subdomain", of: names.route },
  ingressTls: { what: "edge TLS Secret", format: "DNS-1123 subdomain", of: names.ingressTls },
  backendTls: { what: "BackendTLSPolicy", format: "DNS-1123 subdomain", of: names.backendTls },
  hpa: { what: "HorizontalPodAutoscaler", format: "DNS-1123 subdomain", of: names.hpa },
  pdb: { what: "PodDisruptionBudget", format: "DNS-1123 subdomain", of: names.pdb },
  caBundle: { what: "CA bundle ConfigMap", format: "DNS-1123 subdomain", of: names.caBundle },
  postgres: { what: "derived Postgres Secret", format: "DNS-1123 subdomain", of: names.postgres },
  serviceMonitor: { what: "ServiceMonitor", format: "DNS-1123 subdomain", of: names.serviceMonitor },
};

/** Every name and label value derived from a CR's name, with its format. */
export const DERIVED_NAMES: readonly DerivedName[] = [
  ...Object.values(NAME_RULES),
  ...Object.keys(commonLabels("x")).map((label) => ({
    what: `label ${label}`,
    format: "label value" as const,
    of: (parent: string) => commonLabels(parent)[label] ?? "",
  })),
];

/** The longest CR name `d` allows: derived names are the CR name plus a fixed prefix or suffix; a constant value allows any. */
const longestFor = (d: DerivedName): number =>
  d.of("a") === d.of("") ? Infinity : NAME_FORMATS[d.format].max - d.of("").length;

/** The longest CR name whose every derived name fits its limit. */
export const LONGEST_NAME = Math.min(...DERIVED_NAMES.map(longestFor));

/** What is wrong with the names a CR called `parent` gives its children: one message per derived name that Kubernetes would refuse. */
export function derivedNameProblems(parent: string): readonly string[] {
  return problemsOfName(parent);
}

function problemsOfName(parent: string): string[] {
  const problems: string[] = [];
  for (const d of DERIVED_NAMES) {
    const value = d.of(parent);
    const format = NAME_FORMATS[d.format];
    if (value.length > format.max) {
      problems.push(
        `gives the ${d.what} "${value}" of ${value.length} characters; a ${d.format} is at most ${format.max}. Use a name of at most ${LONGEST_NAME} characters (the longest that fits every child)`,
      );
    } else if (!format.pattern.test(value)) {
      problems.push(
        `gives the ${d.what} "${value}", which is not a ${d.format} (${format.shape}); use a name of ${format.shape}`,
      );
    }
  }
  return problems;
}

/** `derivedNameProblems` as errors on `metadata.name`: what /validate, `llsd validate` and the sync report. */
export function nameErrors(parent: string): FieldError[] {
  return derivedNameProblems(parent).map((problem) => fieldError("metadata.name", `"${parent}" ${problem}`));
}
