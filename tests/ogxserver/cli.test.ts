/**
 * `llsd convert` to and from OGXServer (lib/cli/convert.ts): warnings on stderr, the peer's
 * model checked on both sides (what it refuses is an error with the field path, exit 1), the
 * `--adopt` steps, and the usage errors of the new options.
 */
import { parse, stringify } from "yaml";
import { llsd } from "../cli-helpers";
import { anLlsd, anOgxServer } from "./helpers";

const file = (object: unknown): string => stringify(object);

describe("llsd convert --to ogx.io/v1beta1", () => {
  it("prints the OGXServer and each difference as a warning naming its field", () => {
    const run = llsd(["convert", "--to", "ogx.io/v1beta1", "a.yaml"], {
      "a.yaml": file(anLlsd({ resources: { shields: ["llama-guard"] }, monitoring: { enabled: true } })),
    });
    expect([run.code, parse(run.stdout).kind]).toEqual([0, "OGXServer"]);
    expect(run.stderr).toBe(
      "warning: demo: spec.distribution.name: the peer runs the image its operator release maps this name to, not the one llsd-hooks pins; set distribution.image to keep the same server\n" +
        "warning: demo: spec.resources.shields: not converted (kept in the annotation): the peer has no shields (the Safety API is gone on OGX 1.x)\n",
    );
  });

  it("refuses an LLSD whose OGXServer the peer would refuse, with the field path", () => {
    const run = llsd(["convert", "--to", "ogx.io/v1beta1", "a.yaml"], {
      "a.yaml": file(anLlsd({ workload: { overrides: { args: [""] } } })),
    });
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain("spec.workload.overrides.args[0]: must NOT have fewer than 1 characters");
  });

  it("--adopt renames the OGXServer, writes the adoption annotations and prints the steps", () => {
    const llsdWithStorage = anLlsd({ workload: { storage: { size: "5Gi" } } }, "chat");
    Object.assign(llsdWithStorage.metadata as object, { namespace: "team-a" });
    const run = llsd(["convert", "--to", "ogx.io/v1beta1", "--adopt", "--name", "chat-v2", "a.yaml"], {
      "a.yaml": file(llsdWithStorage),
    });
    const metadata = parse(run.stdout).metadata as { name: string; annotations: Record<string, string> };
    expect([
      metadata.name,
      metadata.annotations["ogx.io/adopt-storage"],
      metadata.annotations["ogx.io/adopt-networking"],
    ]).toEqual(["chat-v2", "chat", "chat"]);
    expect(run.stderr.split("\n").filter((l) => l.startsWith("step"))).toEqual([
      "step 1: chat: kubectl delete llsd chat -n team-a --cascade=orphan",
      "step 2: chat: kubectl apply -n team-a -f chat-v2.yaml",
      "step 3: chat: kubectl wait ogxserver/chat-v2 -n team-a --for=jsonpath='{.status.phase}'=Ready --timeout=15m",
      "step 4: chat: kubectl delete deployment/chat networkpolicy/chat-network-policy -n team-a --ignore-not-found",
      "step 5: chat: kubectl delete configmap,horizontalpodautoscaler,poddisruptionbudget -n team-a -l app.kubernetes.io/instance=chat,app.kubernetes.io/managed-by=llsd-hooks --ignore-not-found",
    ]);
  });

  it("--adopt refuses to keep the name, which the peer refuses", () => {
    const run = llsd(["convert", "--to", "ogx.io/v1beta1", "--adopt", "--name", "demo", "a.yaml"], {
      "a.yaml": file(anLlsd()),
    });
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain("metadata.name: the OGXServer needs a new name");
  });

  it.each([
    [["--to", "v1alpha2", "--adopt"], "--adopt and --name go with --to ogx.io/v1beta1"],
    [["--to", "ogx.io/v1beta1", "--name", "x"], "--name goes with --adopt"],
  ])("given %j, exits 2 naming the option", (args, message) => {
    const run = llsd(["convert", ...args, "a.yaml"], { "a.yaml": file(anLlsd()) });
    expect([run.code, run.stderr.split("\n")[0]]).toEqual([2, `error: ${message}`]);
  });
});

describe("llsd convert --to v1alpha2 with an OGXServer", () => {
  it.each(["v1alpha2", "llamastack.io/v1alpha2"])("--to %s reads it and prints an LLSD", (to) => {
    const run = llsd(["convert", "--to", to, "o.yaml"], {
      "o.yaml": file(anOgxServer({ monitoring: { enabled: false } })),
    });
    expect([run.code, parse(run.stdout).apiVersion, run.stderr]).toEqual([0, "llamastack.io/v1alpha2", ""]);
  });

  it("refuses an OGXServer the peer's API refuses, with the field path", () => {
    const run = llsd(["convert", "--to", "v1alpha2", "o.yaml"], {
      "o.yaml": file(anOgxServer({ workload: { storage: { size: "0" } } })),
    });
    expect([run.code, run.stdout, run.stderr]).toEqual([
      1,
      "",
      "error: demo:\nspec.workload.storage: size must be a positive quantity\n",
    ]);
  });
});
