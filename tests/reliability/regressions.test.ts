/**
 * Bugs the reliability tests found in code outside the hook layer, each kept as the behaviour
 * docs/failure-policy.md asks for. Found by tests/reliability/fuzz.test.ts.
 */
import { aConfigMap, aParent, aRequest } from "../sync-builders";
import { startHarness, type Harness } from "./support";

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({ logLevel: "silent" });
});
afterAll(async () => {
  await harness.close();
});

interface Answer {
  readonly status: {
    readonly phase: string;
    readonly conditions: readonly { readonly type: string; readonly reason: string; readonly message: string }[];
  };
}

describe("an override config.yaml whose aliases do not resolve", () => {
  // lib/config/yaml.ts parseYaml: the yaml library reports these only when resolving (doc.toJS
  // throws), which once escaped the error check and made the sync hook answer 500.
  it.each([
    ["an unresolved alias", "version: 2\napis: *nowhere\n", "an alias refers to no anchor"],
    ["too many aliases", `a: &a [x]\nb: [${Array(200).fill("*a").join(", ")}]\n`, "too many aliases (at most 100)"],
  ])("with %s is a Failed status naming the problem, not a 500", async (_what, text, problem) => {
    const body = aRequest(
      aParent({ distribution: { name: "starter" }, overrideConfig: { configMapName: "cm" } }),
      [],
      [aConfigMap("cm", { "config.yaml": text })],
    );
    const answer = await harness.post("/sync", body);
    expect(answer.status).toBe(200);
    const { status } = JSON.parse(answer.text) as Answer;
    expect(status.phase).toBe("Failed");
    expect(status.conditions.find((c) => c.type === "ConfigGenerated")).toMatchObject({
      reason: "OverrideConfigInvalid",
      message: expect.stringContaining(`invalid YAML: ${problem}`),
    });
  });
});
