/**
 * `spec.monitoring` through the pure sync (lib/sync/monitoring.ts): the ServiceMonitor child
 * only with the server-monitoring component, a status note without it, and a refusal, with the
 * running children kept, on a server line without the endpoint.
 */
import { sync } from "../../../lib/sync/sync";
import type { SyncDeps } from "../../../lib/sync/answer";
import { aParent, aRequest, deps, observedFrom } from "../../sync-builders";

const WITH_COMPONENT: SyncDeps = {
  ...deps(),
  serverMonitoring: { serviceMonitors: true, scraperNamespace: "monitoring" },
};
const NOTE = /^spec\.monitoring: no ServiceMonitor: the hooks run without the server-monitoring component/;

type Status = { phase?: string; notes?: string[]; conditions?: { type: string; reason: string; message: string }[] };
const statusOf = (s: unknown): Status => s as Status;

describe("sync with spec.monitoring", () => {
  it("with the component: a ServiceMonitor child, and no note", () => {
    const response = sync(aRequest(aParent({ distribution: { name: "starter" }, monitoring: {} })), WITH_COMPONENT);
    expect(response.children.filter((c) => c.kind === "ServiceMonitor").map((c) => c.metadata.name)).toEqual([
      "demo-service-monitor",
    ]);
    expect(statusOf(response.status).notes ?? []).not.toContainEqual(expect.stringMatching(NOTE));
  });

  it.each<[string, SyncDeps]>([
    ["without the settings", deps()],
    ["with ServiceMonitors off", { ...deps(), serverMonitoring: { serviceMonitors: false, scraperNamespace: "x" } }],
  ])("without the component (%s): no ServiceMonitor, and the status says so", (_title, d) => {
    const response = sync(aRequest(aParent({ distribution: { name: "starter" }, monitoring: {} })), d);
    expect(response.children.map((c) => c.kind)).not.toContain("ServiceMonitor");
    expect(statusOf(response.status).notes).toContainEqual(expect.stringMatching(NOTE));
  });

  it("monitoring off: no note, no ServiceMonitor", () => {
    const response = sync(
      aRequest(aParent({ distribution: { name: "starter" }, monitoring: { enabled: false } })),
      deps(),
    );
    expect(statusOf(response.status).notes ?? []).not.toContainEqual(expect.stringMatching(NOTE));
    expect(response.children.map((c) => c.kind)).not.toContain("ServiceMonitor");
  });

  it("on a 0.8 server: Failed with the field path and the lines that have it; the running children are kept", () => {
    const spec = { distribution: { image: "docker.io/ogx/distribution-starter:0.8.0" } };
    const running = sync(aRequest(aParent(spec)), deps()).children;
    const response = sync(aRequest(aParent({ ...spec, monitoring: {} }), observedFrom(running)), WITH_COMPONENT);
    const status = statusOf(response.status);
    expect(status.phase).toBe("Failed");
    expect(status.conditions).toContainEqual(
      expect.objectContaining({
        type: "ConfigGenerated",
        reason: "MetricsUnsupported",
        message: expect.stringMatching(
          /spec\.monitoring\.enabled: the 0\.8 server line has no metrics endpoint; the lines that have it: "1\.2", "1\.3"/,
        ),
      }),
    );
    expect(response.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(
      running.map((c) => `${c.kind}/${c.metadata.name}`).sort(),
    );
  });
});
