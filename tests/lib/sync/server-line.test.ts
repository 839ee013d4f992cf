/**
 * Which server a CR runs, from the request alone: a new CR gets the current default (1.x), a
 * running one keeps its image when the hooks' defaults change (across the memo and restarts),
 * and plain HTTP is switched on for the 1.x line.
 */
import { FOLLOW_DEFAULT_ANNOTATION } from "../../../lib/sync/target";
import { sync, syncRemembered, type SyncDeps } from "../../../lib/sync";
import { createSyncMemo } from "../../../lib/sync/memo";
import { DEFAULT_DISTRIBUTIONS, GO_OPERATOR_DISTRIBUTIONS, withOverrides } from "../../../lib/distributions/table";
import type { KubeObject, SyncRequest, SyncResponse } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps, steadyState } from "../../sync-builders";
import { parse } from "yaml";
import { toHub } from "../../../lib/conversion/v1alpha1";

const generated = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
};
const imageDefault = { distribution: { name: "starter" } };
/** The hooks before the 1.x default: the same names on 0.7.1 images (no operator override). */
const before: SyncDeps = { ...deps(), distributions: GO_OPERATOR_DISTRIBUTIONS };
const after: SyncDeps = deps();

const deploymentOf = (r: SyncResponse) =>
  r.children.find((c) => c.kind === "Deployment") as KubeObject & {
    spec: { template: { spec: { containers: { image: string; args?: string[] }[] } } };
  };
const serverOf = (r: SyncResponse) => deploymentOf(r).spec.template.spec.containers[0]!;
const configOf = (r: SyncResponse) =>
  parse(
    String(
      (r.children.find((c) => c.kind === "ConfigMap") as unknown as { data: { "config.yaml": string } }).data[
        "config.yaml"
      ],
    ),
  ) as { apis: string[]; server: Record<string, unknown> };
const notesOf = (r: SyncResponse) => (r.status as { notes?: string[] }).notes ?? [];
const syncNow = (d: SyncDeps) => (r: SyncRequest) => sync(r, d);

/** A CR that has been running under `d` until everything settled. */
async function running(
  spec: object,
  d: SyncDeps = before,
  extra: { annotations?: Record<string, string> } = {},
): Promise<SyncRequest> {
  const parent = aParent(spec);
  const withAnnotations = extra.annotations
    ? { ...parent, metadata: { ...parent.metadata, annotations: extra.annotations } }
    : parent;
  return steadyState(aRequest(withAnnotations), syncNow(d));
}

describe("a new v1alpha2 CR", () => {
  it("gets the current default image, the 1.3 line, and a config that serves plain HTTP", () => {
    const r = sync(aRequest(aParent(generated)), after);
    expect(serverOf(r).image).toBe("docker.io/ogxai/distribution-starter:1.3.0");
    expect(configOf(r).apis).not.toContain("safety");
    expect(configOf(r).server).toEqual({ port: 8321, insecure: true });
    expect(serverOf(r).args).toBeUndefined();
  });

  it.each([
    ["the image's own config", imageDefault, ["--insecure"]],
    [
      "TLS",
      { distribution: { name: "starter" }, networking: { tls: { enabled: true, secretName: "cert" } } },
      undefined,
    ],
    [
      "the user's args",
      { distribution: { name: "starter" }, workload: { overrides: { args: ["--port", "8321"] } } },
      ["--port", "8321"],
    ],
    [
      "the user's command",
      { distribution: { name: "starter" }, workload: { overrides: { command: ["/bin/run"] } } },
      undefined,
    ],
    ["a 0.8 image", { distribution: { image: "docker.io/ogx/distribution-starter:0.8.0" } }, undefined],
    [
      "a 1.1 image, whose server has no --insecure flag",
      { distribution: { image: "docker.io/ogxai/distribution-starter:1.1.3" } },
      undefined,
    ],
    [
      "a 1.2.0 image, whose entrypoint does not pass it (1.2.1's and later do: twice is harmless)",
      { distribution: { image: "docker.io/ogxai/distribution-starter:1.2.0" } },
      ["--insecure"],
    ],
  ])("with %s, passes the entrypoint %j", (_what, spec, args) => {
    const cert = { ...aSecret("cert", { "tls.crt": "certificate", "tls.key": "key" }), type: "kubernetes.io/tls" };
    expect(serverOf(sync(aRequest(aParent(spec), [], [cert]), after)).args).toEqual(args);
  });

  it("says in status which line an image of an unknown version runs on", () => {
    const r = sync(aRequest(aParent({ distribution: { image: "docker.io/ogxai/distribution-starter:1.5.0" } })), after);
    expect(notesOf(r)).toEqual([
      expect.stringContaining(
        "spec.distribution: server version 1.5.0 (tag of docker.io/ogxai/distribution-starter:1.5.0) is not a line these hooks know",
      ),
    ]);
  });

  it("refuses the Safety API in status, keeping nothing it did not create", () => {
    const r = sync(aRequest(aParent({ ...generated, resources: { shields: ["llama-guard"] } })), after);
    expect(r.status).toEqual(expect.objectContaining({ phase: "Failed" }));
    const condition = (r.status as { conditions: { type: string; reason: string; message: string }[] }).conditions.find(
      (c) => c.type === "ConfigGenerated",
    );
    expect(condition).toEqual(
      expect.objectContaining({
        reason: "ConfigGenerationFailed",
        message: expect.stringContaining("spec.resources.shields[0]: the 1.3 server line has no Safety API"),
      }),
    );
    expect(r.children).toEqual([]);
  });
});

describe("a running CR when the hooks' default changes", () => {
  it.each([
    ["generated", generated],
    ["image default", imageDefault],
  ])("(%s) keeps its image and its config, byte for byte", async (_what, spec) => {
    const steady = await running(spec);
    const old = sync(steady, before);
    const now = sync(steady, after);
    expect(now.children).toEqual(old.children);
    expect(serverOf(now).image).toBe("docker.io/llamastack/distribution-starter:0.7.1");
    expect(notesOf(now)).toContain(
      `spec.distribution.name: starter keeps running docker.io/llamastack/distribution-starter:0.7.1, the image this server was started with; the current default for starter is docker.io/ogxai/distribution-starter:1.3.0. To move to it, annotate the CR ${FOLLOW_DEFAULT_ANNOTATION}: "true" (or set distribution.image)`,
    );
  });

  it("keeps it through the memo and after a restart (a new memo): the answer comes from the request", async () => {
    const steady = await running(generated);
    const memo = createSyncMemo({ maxBytes: 2 ** 24, idleMs: 60_000, now: () => 0 });
    const first = await syncRemembered(steady, after, { memo });
    const again = await syncRemembered(steady, after, { memo });
    const restarted = await syncRemembered(steady, after, {
      memo: createSyncMemo({ maxBytes: 2 ** 24, idleMs: 60_000, now: () => 0 }),
    });
    expect(again.body.equals(first.body)).toBe(true);
    expect(restarted.body.equals(first.body)).toBe(true);
    expect(serverOf(JSON.parse(first.body.toString("utf8")) as SyncResponse).image).toBe(
      "docker.io/llamastack/distribution-starter:0.7.1",
    );
  });

  it("keeps it from the previous status when the Deployment is not observed", async () => {
    const steady = await running(generated);
    expect(serverOf(sync({ ...steady, children: {} }, after)).image).toBe(
      "docker.io/llamastack/distribution-starter:0.7.1",
    );
  });

  it("keeps it from the Deployment's image name when the status was cleared", async () => {
    const steady = await running(generated);
    const parent = { ...steady.parent, status: undefined };
    expect(serverOf(sync({ ...steady, parent }, after)).image).toBe("docker.io/llamastack/distribution-starter:0.7.1");
  });

  it("keeps it when a rename that never ran is undone (the status recorded the other name)", async () => {
    const steady = await running(generated);
    const renamedStatus = {
      ...(steady.parent.status as object),
      distributionConfig: { activeDistribution: "postgres-demo" },
    };
    const back = { ...steady, parent: { ...steady.parent, status: renamedStatus } };
    expect(serverOf(sync(back, after)).image).toBe("docker.io/llamastack/distribution-starter:0.7.1");
  });

  it.each([
    [
      "the user annotates it to follow the default",
      async () => {
        const steady = await running(generated);
        return {
          ...steady,
          parent: {
            ...steady.parent,
            metadata: { ...steady.parent.metadata, annotations: { [FOLLOW_DEFAULT_ANNOTATION]: "true" } },
          },
        };
      },
      "docker.io/ogxai/distribution-starter:1.3.0",
    ],
    [
      "the user switches to another distribution name",
      async () => {
        const steady = await running(generated);
        return {
          ...steady,
          parent: { ...steady.parent, spec: { ...generated, distribution: { name: "postgres-demo" } } },
        };
      },
      "docker.io/ogxai/distribution-postgres-demo:1.3.0",
    ],
  ])("moves when %s", async (_what, request, image) => {
    expect(serverOf(sync(await request(), after)).image).toBe(image);
  });

  it("moves when the operator overrides the name's image (an explicit choice for every CR)", async () => {
    const steady = await running(generated);
    const overridden = {
      ...after,
      distributions: withOverrides(DEFAULT_DISTRIBUTIONS, { starter: "quay.io/acme/distribution-starter:1.3.0" }).table,
    };
    expect(serverOf(sync(steady, overridden)).image).toBe("quay.io/acme/distribution-starter:1.3.0");
  });

  it("a 1.x CR moved by the annotation then runs the 1.x dialect", async () => {
    const steady = await running(generated, before, { annotations: { [FOLLOW_DEFAULT_ANNOTATION]: "true" } });
    const r = sync(steady, after);
    expect(configOf(r).apis).not.toContain("safety");
    expect(configOf(r).server.insecure).toBe(true);
  });
});

describe("a v1alpha1 CR (the Go operator's API)", () => {
  const v1alpha1 = {
    apiVersion: "llamastack.io/v1alpha1",
    kind: "LlamaStackDistribution",
    metadata: { name: "legacy", namespace: "team-a", uid: "uid-2", generation: 1 },
    spec: {
      replicas: 1,
      server: { distribution: { name: "starter" }, containerSpec: { name: "llama-stack", port: 8321 } },
    },
  };

  it("that is not running yet starts the Go operator's image for its name, and says so", () => {
    const converted = toHub(v1alpha1);
    if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
    const r = sync(aRequest(converted.object as unknown as KubeObject), after);
    expect(serverOf(r).image).toBe("docker.io/llamastack/distribution-starter:0.7.1");
    expect(serverOf(r).args).toBeUndefined();
    expect(notesOf(r)).toContain(
      `spec.distribution.name: a v1alpha1 CR runs the Go operator's image for starter (docker.io/llamastack/distribution-starter:0.7.1); annotate the CR ${FOLLOW_DEFAULT_ANNOTATION}: "true" for the current default (docker.io/ogxai/distribution-starter:1.3.0)`,
    );
  });

  it("keeps that image and that note once its status records it (no status change on the resync)", () => {
    const converted = toHub(v1alpha1);
    if (!converted.ok) throw new Error(JSON.stringify(converted.errors));
    const first = sync(aRequest(converted.object as unknown as KubeObject), after);
    const parent = { ...(converted.object as unknown as KubeObject), status: first.status };
    const again = sync(aRequest(parent), after);
    expect(serverOf(again).image).toBe("docker.io/llamastack/distribution-starter:0.7.1");
    expect(again.status).toEqual(first.status);
  });
});
