/**
 * Everything a child builder may read: the parent's identity, the canonical spec and what the
 * sync pipeline decided (image, config, env). Builders are pure functions of this context.
 */
import type { ExposeWith } from "../api/expose-types";
import type { CanonicalSpec } from "../api/canonical";
import type { DerivedPostgres } from "../config/postgres-stores";
import type { ResolvedExternalProvider } from "../config/external-providers";
import type { SecretEnv } from "../config/providers";
import type { PlainEnv } from "../config/telemetry";
import type { Release } from "../distributions/table";
import type { ServerMonitoringSettings } from "../distributions/monitoring";

export interface MountedConfig {
  /** `generated`: our hash-named ConfigMap; `override`: the user's ConfigMap, mounted as is. */
  readonly source: "generated" | "override";
  readonly configMapName: string;
  /** SHA-256 (hex) of the config.yaml text: the pod-template annotation that rolls pods on change. */
  readonly hash: string;
  /** The generated text (generated only): the ConfigMap child's data. */
  readonly configYaml?: string;
  /** The ConfigMap key that holds config.yaml (override only: overrideConfig.key); @default config.yaml */
  readonly key?: string;
}

/** The managed CA bundle (`<name>-ca-bundle`): what it holds and its hash (a rollout trigger). */
export interface CaBundleMount {
  readonly configMapName: string;
  /** `ca-bundle.crt`: the checked, re-encoded PEM certificates. */
  readonly data: string;
  readonly hash: string;
}

/**
 * A v1alpha1 CR (lib/sync/legacy.ts): the Go operator's pod details for what it asked
 * (docs/migrating-from-go-operator.md). Absent for v1alpha2 CRs.
 */
export interface LegacyProfile {
  /** `spec.server.containerSpec.name`. */
  readonly containerName: string;
  /** `spec.network` was set: the NetworkPolicy admits the OpenShift router. */
  readonly networkSet: boolean;
}

export interface ChildContext {
  readonly name: string;
  readonly namespace: string;
  readonly spec: CanonicalSpec;
  /** The resolved server image (pinned). */
  readonly image: string;
  /** The server line the image runs: where it keeps its state, which variables it reads. */
  readonly release: Release;
  /** Entrypoint arguments the server line needs when the user gives no command or args (`--insecure`). */
  readonly serverArgs?: readonly string[];
  /** Absent when the image runs its own default config. */
  readonly config?: MountedConfig;
  /** Secret-backed env vars, in order (providers, then Postgres parts). */
  readonly secretEnv: readonly SecretEnv[];
  /** Plain env the config needs (OpenTelemetry). */
  readonly plainEnv: readonly PlainEnv[];
  /** Parts of the user's Postgres DSNs, read from the related Secrets by the sync hook (lib/config/postgres-stores.ts). */
  readonly postgres?: DerivedPostgres;
  /** The overrideConfig ConfigMap whose server believes a gateway's identity headers: the policy admits only the gateway. */
  readonly gatewayHeaders?: string;
  /** Namespace of the hooks and Metacontroller: the NetworkPolicy admits it. */
  readonly hooksNamespace: string;
  /** What carries an exposed server: an Ingress, an OpenShift Route (the OpenShift overlay) or a Gateway API HTTPRoute (the gateway component). */
  readonly exposeWith: ExposeWith;
  /** Extra CAs the server trusts (networking.tls.caBundle and the namespace's ODH bundle). */
  readonly caBundle?: CaBundleMount;
  /** Set for a v1alpha1 CR. */
  readonly legacy?: LegacyProfile;
  /** A CR taken over from a Go operator that ran it without a NetworkPolicy, not opted in: none, and the Deployment carries the mark. */
  readonly keptOpen?: boolean;
  /**
   * The observed Deployment is the OGX operator's (lib/sync/ogx-takeover.ts): pods keep its
   * `app: ogx` selector and its container, volume and port conventions.
   */
  readonly ogxTakeover?: boolean;
  /** External providers with their image metadata, in CR order: init containers and PYTHONPATH. */
  readonly externalProviders?: readonly ResolvedExternalProvider[];
  /** ServiceMonitors and the scraper namespace for `spec.monitoring`; absent: none, `monitoring` (lib/distributions/monitoring.ts). */
  readonly serverMonitoring?: ServerMonitoringSettings;
  /** The API server's endpoints (related EndpointSlices), for egress with `auth.kubernetes` (lib/sync/api-server.ts). */
  readonly apiServer?: ApiServerEgress;
}

/** Where the API server answers from inside the pods: its endpoints, from the related EndpointSlices. */
export interface ApiServerEgress {
  /** Addresses of the API server's endpoints (`kubectl get endpoints kubernetes -n default`), as CIDRs. */
  readonly cidrs: readonly string[];
  /** The endpoints' ports (6443 on kubeadm clusters, 443 on most managed ones). */
  readonly ports: readonly number[];
}
