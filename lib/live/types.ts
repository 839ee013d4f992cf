/**
 * What the hooks learn from a running server (`GET /v1/version`, `GET /v1/providers`) and where
 * they ask it. Shapes follow the Go operator's status (`status.distributionConfig`), so a
 * v1alpha1 reader sees the same fields.
 */

/** One entry of `GET /v1/providers` → `data`, as `status.distributionConfig.providers` holds it. */
export interface ProviderInfo {
  readonly api: string;
  readonly provider_id: string;
  readonly provider_type: string;
  /** The provider's config as the server reports it (Secret fields redacted by the server). */
  readonly config: { readonly [key: string]: unknown };
  readonly health: { readonly status: string; readonly message: string };
}

/** A server to ask: derived from the observed children alone (lib/sync/live-target.ts). */
export interface LiveTarget {
  /** `namespace/name` of the parent: the cache holds one answer per parent. */
  readonly key: string;
  /** `http(s)://<name>-service.<namespace>.svc.cluster.local:<port>`. */
  readonly url: string;
  /** Changes when the pods that answer may have changed (new template, rollout, scaling). */
  readonly fingerprint: string;
  /** The server terminates TLS itself (its certificate is not checked, like the kubelet's probes). */
  readonly tls: boolean;
}

/** The answer of one check. `problems` empty: the server answered both questions. */
export interface LiveReport {
  readonly url: string;
  readonly version?: string;
  readonly providers?: readonly ProviderInfo[];
  /** One line per question that failed, e.g. `GET /v1/version: no answer within 1.5 s`. */
  readonly problems: readonly string[];
  /** A question the server would not answer without credentials (spec.auth), and why it was not shown. */
  readonly withheld?: string;
}

/** Asks a server; never rejects, never takes longer than its deadline. */
export interface LiveStatus {
  check(target: LiveTarget): Promise<LiveReport>;
}
