/**
 * Live status in the sync: `version`, `distributionConfig` and the `HealthCheck` condition from
 * what the running server answered (as the Go operator reports them), without churn, keeping
 * the last good values when the server does not answer, and never delaying the sync.
 */
import { compile, schemaErrors } from "../../../lib/api/schema";
import { V1ALPHA2_STATUS_SCHEMA } from "../../../lib/api/schema-status-v1alpha2";
import { createLiveStatus } from "../../../lib/live";
import { PROVIDERS_WITHHELD } from "../../../lib/live/server-info";
import type { LiveReport } from "../../../lib/live/types";
import { liveStatus, packageVersion, syncWith } from "../../../lib/sync";
import { liveSettingsFromEnv, syncSettingsFromEnv } from "../../../hooks/sync-settings";
import { liveTargetOf } from "../../../lib/sync/live-target";
import { sync, type SyncDeps } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps as baseDeps, observedFrom, T0 } from "../../sync-builders";
import { scrub, secretValuesOf } from "../../../hooks/redact";
import { startFakeServer, type FakeServer } from "../live/fake-server";

const spec = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } } },
};
const secret = aSecret("creds", { token: "tok-s3cr3t-value" });
const URL = "http://demo-service.team-a.svc.cluster.local:8321";
const later = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const deps = (now: Date = T0): SyncDeps => ({ ...baseDeps(now), operatorVersion: "0.1.0" });
const statusSchema = compile(V1ALPHA2_STATUS_SCHEMA);

const PROVIDER = {
  api: "inference",
  provider_id: "vllm",
  provider_type: "remote::vllm",
  config: { base_url: "http://vllm:8000/v1" },
  health: { status: "OK", message: "" },
};
const answered = (version = "0.7.1", providers = [PROVIDER]): LiveReport => ({
  url: URL,
  version,
  providers,
  problems: [],
});
const silent: LiveReport = {
  url: URL,
  problems: ["GET /v1/version: no answer within 1.5 s", "GET /v1/providers: no answer within 1.5 s"],
};

type Cond = { type: string; status: string; reason: string; message: string; lastTransitionTime: string };
const health = (r: SyncResponse): Cond | undefined =>
  (r.status.conditions as Cond[]).find((c) => c.type === "HealthCheck");

/** A parent whose children were applied (ready pods), with the status of `before`. */
function running(readyReplicas = 1, before?: SyncResponse, parentSpec: object = spec) {
  const first = sync(aRequest(aParent(parentSpec), [], [secret]), deps());
  const observed = observedFrom(first.children, readyReplicas);
  return aRequest(aParent(parentSpec, before ? { status: before.status } : {}), observed, [secret]);
}

describe("live status in the sync", () => {
  it("before any pod is ready: HealthCheck False with the Go operator's message, no providers", () => {
    const r = sync(aRequest(aParent(spec), [], [secret]), deps(), undefined, answered());
    expect(health(r)).toEqual(
      expect.objectContaining({ status: "False", reason: "HealthCheckFailed", message: "Deployment not ready" }),
    );
    expect(r.status.distributionConfig).toEqual({
      activeDistribution: "starter",
      availableDistributions: {
        "postgres-demo": "docker.io/ogxai/distribution-postgres-demo:1.3.0",
        starter: "docker.io/ogxai/distribution-starter:1.3.0",
      },
    });
    expect(r.status.version).toEqual({ operatorVersion: "0.1.0", lastUpdated: "2026-11-22T10:00:00Z" });
  });

  it("when the server answered: HealthCheck True, the server version and its providers", () => {
    const r = sync(running(), deps(), undefined, answered());
    expect(health(r)).toEqual(
      expect.objectContaining({ status: "True", reason: "HealthCheckPassed", message: "Health check passed" }),
    );
    expect(r.status.version).toEqual({
      operatorVersion: "0.1.0",
      llamaStackServerVersion: "0.7.1",
      lastUpdated: "2026-11-22T10:00:00Z",
    });
    expect(r.status.distributionConfig).toEqual(
      expect.objectContaining({ activeDistribution: "starter", providers: [PROVIDER] }),
    );
    expect(r.status.phase).toBe("Ready");
    expect(r.resyncAfterSeconds).toBeUndefined();
    expect(schemaErrors(statusSchema, r.status)).toEqual([]);
  });

  it("does not churn: the same answer later gives the same status, lastUpdated and lastTransitionTime included", () => {
    const first = sync(running(), deps(), undefined, answered());
    const again = sync(running(1, first), deps(later(60)), undefined, answered());
    expect(again.status).toEqual(first.status);
  });

  it("moves lastUpdated only when a version changes", () => {
    const first = sync(running(), deps(), undefined, answered("0.7.1"));
    const upgraded = sync(running(1, first), deps(later(5)), undefined, answered("0.7.2"));
    expect(upgraded.status.version).toEqual({
      operatorVersion: "0.1.0",
      llamaStackServerVersion: "0.7.2",
      lastUpdated: "2026-11-22T10:05:00Z",
    });
    const newOperator = sync(
      running(1, upgraded),
      { ...deps(later(9)), operatorVersion: "0.2.0" },
      undefined,
      answered("0.7.2"),
    );
    expect((newOperator.status.version as { lastUpdated: string }).lastUpdated).toBe("2026-11-22T10:09:00Z");
  });

  it("when the server stops answering: keeps the last version and providers, says so, and asks to be called again", () => {
    const good = sync(running(), deps(), undefined, answered());
    const r = sync(running(1, good), deps(later(5)), undefined, silent);
    expect(health(r)).toEqual(
      expect.objectContaining({
        status: "False",
        reason: "HealthCheckFailed",
        message: `The server did not answer at ${URL}: GET /v1/version: no answer within 1.5 s; GET /v1/providers: no answer within 1.5 s; the version and providers shown are from the last check that succeeded`,
        lastTransitionTime: "2026-11-22T10:05:00Z",
      }),
    );
    expect(r.status.version).toEqual(good.status.version);
    expect((r.status.distributionConfig as { providers: unknown }).providers).toEqual([PROVIDER]);
    expect(r.resyncAfterSeconds).toBe(30);
    expect(r.children).toEqual(good.children);
  });

  it("with spec.auth on: HealthCheck passes on the open /v1/version, says why providers are not shown, drops the old list", () => {
    const authSpec = { ...spec, auth: { kubernetes: {} } };
    const good = sync(running(1, undefined, authSpec), deps(), undefined, answered());
    const withheld: LiveReport = { url: URL, version: "0.7.1", problems: [], withheld: PROVIDERS_WITHHELD };
    const r = sync(running(1, good, authSpec), deps(later(5)), undefined, withheld);
    expect(health(r)).toEqual(
      expect.objectContaining({
        status: "True",
        reason: "HealthCheckPassed",
        message: `Health check passed; ${PROVIDERS_WITHHELD}`,
      }),
    );
    expect(r.status.distributionConfig).not.toHaveProperty("providers");
    expect(r.resyncAfterSeconds).not.toBe(30);
  });

  it("takes what a half answer gives: a new version with the previous providers", () => {
    const good = sync(running(), deps(), undefined, answered());
    const r = sync(running(1, good), deps(later(5)), undefined, {
      url: URL,
      version: "0.7.2",
      problems: ["GET /v1/providers: HTTP 500"],
    });
    expect((r.status.version as { llamaStackServerVersion: string }).llamaStackServerVersion).toBe("0.7.2");
    expect((r.status.distributionConfig as { providers: unknown }).providers).toEqual([PROVIDER]);
    expect(health(r)?.status).toBe("False");
  });

  it("when no pod is ready any more: clears the providers (nothing serves them), keeps the version", () => {
    const good = sync(running(), deps(), undefined, answered());
    const r = sync(running(0, good), deps(later(5)), undefined, undefined);
    expect(health(r)?.message).toBe("Deployment not ready");
    expect(r.status.distributionConfig).not.toHaveProperty("providers");
    expect(r.status.version).toEqual(good.status.version);
  });

  it("when live status is off: HealthCheck Unknown, nothing invented", () => {
    const r = sync(running(), deps(), undefined, undefined);
    expect(health(r)).toEqual(expect.objectContaining({ status: "Unknown", reason: "HealthCheckSkipped" }));
    expect(r.status.version).toEqual({ operatorVersion: "0.1.0", lastUpdated: "2026-11-22T10:00:00Z" });
    expect(r.status.distributionConfig).not.toHaveProperty("providers");
  });

  it("never copies a Secret value the server reports into the status", () => {
    const leaky = {
      ...PROVIDER,
      config: { base_url: "http://vllm:8000/v1", api_token: "tok-s3cr3t-value", nested: ["Bearer tok-s3cr3t-value"] },
    };
    const r = sync(running(), deps(), undefined, answered("0.7.1", [leaky]));
    expect(JSON.stringify(r.status)).not.toContain("tok-s3cr3t-value");
    expect((r.status.distributionConfig as { providers: { config: unknown }[] }).providers[0]!.config).toEqual({
      base_url: "http://vllm:8000/v1",
      api_token: "[redacted]",
      nested: ["Bearer [redacted]"],
    });
  });

  // One scrubber for status and logs (lib/secret-scrub.ts): the password inside a DSN, a
  // dockerconfigjson's password and a percent-encoded password are secrets on their own.
  it.each([
    ["a DSN password, bare", "postgresql://llama:pg-pass-4711@db:5432/llama", "pg-pass-4711"],
    ["a DSN password, percent-decoded", "postgresql://llama:pa%2Fss-4711@db:5432/llama", "pa/ss-4711"],
    [
      "a dockerconfigjson password",
      JSON.stringify({ auths: { "quay.io": { username: "u", password: "pull-pass-4711" } } }),
      "pull-pass-4711",
    ],
  ])(
    "never copies %s the server reports into the status, as the log scrubber would not log it",
    (_what, value, inner) => {
      const leaky = {
        ...PROVIDER,
        config: { base_url: "http://vllm:8000/v1", password: inner, note: `uses ${inner}` },
      };
      const related = [secret, aSecret("other", { value })];
      const first = sync(aRequest(aParent(spec), [], related), deps());
      const r = sync(
        aRequest(aParent(spec), observedFrom(first.children), related),
        deps(),
        undefined,
        answered("0.7.1", [leaky]),
      );
      expect(JSON.stringify(r.status)).not.toContain(inner);
      expect((r.status.distributionConfig as { providers: { config: unknown }[] }).providers[0]!.config).toEqual({
        base_url: "http://vllm:8000/v1",
        password: "[redacted]",
        note: "uses [redacted]",
      });
      expect(scrub(JSON.stringify(leaky), secretValuesOf({ related }))).not.toContain(inner);
    },
  );

  it("shows `custom` for an image, and keeps the live parts in a failed sync (the server still runs)", () => {
    const good = sync(running(), deps(), undefined, answered());
    // The Secret is gone: a failed sync that keeps the running children.
    const r = sync(
      aRequest(aParent(spec, { status: good.status }), observedFrom(good.children), []),
      deps(later(1)),
      undefined,
      answered(),
    );
    expect(r.status.phase).toBe("Failed");
    expect(health(r)?.status).toBe("True");
    expect(r.status.version).toEqual(good.status.version);
    const image = sync(
      aRequest(aParent({ ...spec, distribution: { image: "quay.io/acme/llama:0.7.1" } }), [], [secret]),
      deps(),
    );
    expect((image.status.distributionConfig as { activeDistribution: string }).activeDistribution).toBe("custom");
  });

  it("ignores a previous status of an unexpected shape", () => {
    const odd = aParent(spec, { status: { version: "x", distributionConfig: { providers: [{ api: 1 }] } } });
    const r = sync({ ...running(), parent: odd }, deps(), undefined, silent);
    expect(r.status.version).toEqual({ operatorVersion: "0.1.0", lastUpdated: "2026-11-22T10:00:00Z" });
    expect(health(r)?.message).not.toContain("last check that succeeded");
  });
});

describe("liveTargetOf()", () => {
  const observed = (mutate: (children: KubeObject[]) => void = () => undefined, readyReplicas = 1) => {
    const children = observedFrom(sync(aRequest(aParent(spec), [], [secret]), deps()).children, readyReplicas);
    mutate(children);
    return aRequest(aParent(spec), children, [secret]);
  };

  it("asks the observed Service's DNS name on its observed port", () => {
    const withPort = observed((children) => {
      const service = children.find((c) => c.kind === "Service") as unknown as { spec: { ports: { port: number }[] } };
      service.spec.ports[0]!.port = 9000;
    });
    expect(liveTargetOf(withPort)).toEqual(
      expect.objectContaining({
        key: "team-a/demo",
        url: "http://demo-service.team-a.svc.cluster.local:9000",
        tls: false,
      }),
    );
  });

  it("uses https when the pods serve TLS (their probes say so)", () => {
    const first = sync(
      aRequest(
        aParent({ ...spec, networking: { tls: { enabled: true, secretName: "tls" } } }),
        [],
        [secret, aSecret("tls", { "tls.crt": "c", "tls.key": "k" })],
      ),
      deps(),
    );
    const target = liveTargetOf(aRequest(aParent(spec), observedFrom(first.children), []));
    expect(target).toEqual(
      expect.objectContaining({ url: "https://demo-service.team-a.svc.cluster.local:8321", tls: true }),
    );
  });

  it("asks nobody without a ready pod or a Service", () => {
    expect(liveTargetOf(observed(() => undefined, 0))).toBeUndefined();
    expect(
      liveTargetOf(
        observed((children) =>
          children.splice(
            children.findIndex((c) => c.kind === "Service"),
            1,
          ),
        ),
      ),
    ).toBeUndefined();
  });

  it("changes its fingerprint with the pod template, not with the parent's status", () => {
    const a = liveTargetOf(observed())!;
    const b = liveTargetOf(
      observed((children) => {
        const d = children.find((c) => c.kind === "Deployment") as unknown as {
          spec: { template: { spec: { containers: { image: string }[] } } };
        };
        d.spec.template.spec.containers[0]!.image = "docker.io/llamastack/distribution-starter:0.7.2";
      }),
    )!;
    expect(a.fingerprint).not.toBe(b.fingerprint);
    expect(liveTargetOf(observed())!.fingerprint).toBe(a.fingerprint);
  });
});

describe("syncWith() against a server on loopback", () => {
  let server: FakeServer;
  beforeAll(async () => {
    server = await startFakeServer();
  });
  afterAll(async () => server.close());
  beforeEach(() => server.reset());

  it("fills version and providers from the server's answers", async () => {
    const live = createLiveStatus({ baseUrl: () => server.url });
    const r = await syncWith(running(), deps(), undefined, live);
    expect(health(r)?.status).toBe("True");
    expect((r.status.version as { llamaStackServerVersion: string }).llamaStackServerVersion).toBe("0.7.1");
    expect((r.status.distributionConfig as { providers: unknown[] }).providers).toHaveLength(3);
    expect(schemaErrors(statusSchema, r.status)).toEqual([]);
  });

  it("answers within its budget when the server hangs, and keeps the children", async () => {
    server.set("/v1/version", { kind: "hang" });
    server.set("/v1/providers", { kind: "hang" });
    const live = createLiveStatus({ baseUrl: () => server.url, timeoutMs: 300 });
    const request = running();
    // The server never answers: only the 0.3 s bound can have ended the check, as the condition says.
    const r = await syncWith(request, deps(), undefined, live);
    expect(health(r)).toEqual(
      expect.objectContaining({ status: "False", message: expect.stringContaining("no answer within 0.3 s") }),
    );
    expect(r.children).toEqual(sync(request, deps()).children);
  });

  it("does not ask when no pod is ready", async () => {
    const live = createLiveStatus({ baseUrl: () => server.url });
    await syncWith(running(0), deps(), undefined, live);
    expect(server.count("/v1/version")).toBe(0);
  });
});

describe("configuration from the environment", () => {
  it("takes operatorVersion from OPERATOR_VERSION, else from the package", () => {
    expect(syncSettingsFromEnv({ OPERATOR_VERSION: "v1.2.3" }).operatorVersion).toBe("v1.2.3");
    expect(syncSettingsFromEnv({}).operatorVersion).toBe(packageVersion());
    expect(packageVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("turns live status off with LLSD_LIVE_STATUS=false and refuses a bad timeout", () => {
    expect(liveSettingsFromEnv({ LLSD_LIVE_STATUS: "false" })).toBeUndefined();
    expect(liveSettingsFromEnv({})).toEqual({ timeoutMs: 1500, ttlMs: 300_000 });
    expect(() => liveSettingsFromEnv({ LLSD_LIVE_TIMEOUT_MS: "soon" })).toThrow(
      'LLSD_LIVE_TIMEOUT_MS must be a positive number, got "soon"',
    );
  });

  it("sends every call to LLSD_LIVE_BASE_URL when set (a port-forwarded server)", async () => {
    const server = await startFakeServer();
    try {
      const live = liveStatus(liveSettingsFromEnv({ LLSD_LIVE_BASE_URL: server.url })!);
      const report = await live.check({ key: "team-a/demo", url: URL, fingerprint: "f", tls: false });
      expect([report.url, report.version]).toEqual([server.url, "0.7.1"]);
    } finally {
      await server.close();
    }
  });
});
