/**
 * `llsd migrate --from ogxserver` (lib/cli/migrate-ogx.ts), end to end: each takeover scenario's
 * OGXServer goes through the CLI, and the LLSD it prints, synced against the OGX operator's
 * children as the printed steps leave them (tests/ogxserver/takeover-cases.ts), takes them over:
 * every labelled child answered under its name, the immutable selector and the PVC kept.
 */
import { parse, stringify } from "yaml";
import { labelledChildren } from "../../lib/migrate/ogxserver-steps";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { llsd } from "../cli-helpers";
import { deps, NS, objectMap } from "../sync-builders";
import { anLlsd, anOgxServer } from "./helpers";
import { CASES, factsOf, NAME, observedOf, UID, type TakeoverCase } from "./takeover-cases";

const ogxServerOf = (c: TakeoverCase) => ({
  apiVersion: "ogx.io/v1beta1",
  kind: "OGXServer",
  metadata: { name: NAME, namespace: NS },
  spec: c.ogxServer,
});
const migrate = (...objects: unknown[]) =>
  llsd(["migrate", "--from", "ogxserver", "in.yaml"], { "in.yaml": objects.map((o) => stringify(o)).join("---\n") });
const id = (o: KubeObject) => `${o.kind}/${o.metadata.name}`;

describe("llsd migrate --from ogxserver", () => {
  // The OGX operator's disabledAPIs has no names for messages, interactions and skills: see below.
  const convertible = CASES.filter(([name]) => name !== "autoscaling-pdb");

  it.each(convertible)("%s: prints the LLSD that takes the running children over, and the steps", (_name, c) => {
    const run = migrate(ogxServerOf(c));
    expect(run.code).toBe(0);
    const printed = parse(run.stdout) as KubeObject;
    expect([printed.kind, printed.metadata.name]).toEqual(["LlamaStackDistribution", NAME]);
    const refs = labelledChildren(NAME, factsOf(c)).map((child) => child.split("/")[1]);
    const label = run.stderr.split("\n").find((l) => l.includes("kubectl label")) ?? "";
    for (const ref of refs) expect(label).toContain(`/${ref} `);

    const parent = { ...printed, metadata: { ...printed.metadata, namespace: NS, uid: UID, generation: 1 } };
    const observed = observedOf(c);
    const answer = sync({ parent, children: objectMap(observed), related: objectMap(c.related ?? []) }, deps());
    expect(answer.status.phase).not.toBe("Failed");
    expect(observed.map(id).filter((o) => !answer.children.some((a) => id(a) === o))).toEqual([]);
    const deployment = answer.children.find((a) => a.kind === "Deployment");
    expect((deployment?.spec as { selector: unknown }).selector).toEqual({
      matchLabels: { app: "ogx", "app.kubernetes.io/instance": NAME },
    });
  });

  it("refuses an OGXServer whose LLSD would be refused: files disabled while skills, which needs it, is on", () => {
    const scaled = CASES.find(([name]) => name === "autoscaling-pdb")?.[1];
    const run = migrate(ogxServerOf(scaled!));
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain("spec.disabled[1]: cannot disable files: the skills API needs it");
  });

  it("keeps other documents beside an OGXServer as they are", () => {
    const other = anLlsd({}, "already-an-llsd");
    const run = migrate(other, anOgxServer({ monitoring: { enabled: false } }));
    expect([run.code, parse(run.stdout.split("---\n")[0] ?? "")]).toEqual([0, other]);
  });

  it("refuses an OGXServer the peer's API refuses, printing nothing for it", () => {
    const run = migrate(anOgxServer({ workload: { storage: { size: "0" } } }));
    expect([run.code, run.stdout]).toEqual([1, ""]);
    expect(run.stderr).toContain("spec.workload.storage: size must be a positive quantity");
  });

  it.each([
    [["migrate", "--from", "ogx", "in.yaml"], "--from"],
    [["migrate", "--from", "ogxserver", "--release", "1.3", "in.yaml"], "takes no --release"],
  ])("refuses %j with a usage error", (args, message) => {
    const run = llsd(args, { "in.yaml": stringify(anOgxServer()) });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });
});
