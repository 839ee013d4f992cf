/** Which status an upgrade report lists: a parent that turns Stalled or Failed, with the reason its conditions give. */
import { phaseAndReason, statusChange } from "./status";
import { renderReport } from "./report";
import { parentImpact } from "./impact";

const condition = (type: string, status: string, reason: string) => ({ type, status, reason, message: "m" });
const aStatus = (phase: string, ...conditions: object[]) => ({ phase, conditions });

const STALLED = aStatus(
  "Failed",
  condition("Ready", "False", "ConfigNotGenerated"),
  condition("ConfigGenerated", "False", "UnsharedState"),
  condition("Stalled", "True", "UnsharedState"),
);

describe("phaseAndReason", () => {
  it.each([
    ["the Stalled condition's reason first", STALLED, { phase: "Failed", reason: "UnsharedState" }],
    [
      "else the first condition not True",
      aStatus("Failed", condition("Ready", "True", "Ok"), condition("SecretsFound", "False", "SecretNotFound")),
      { phase: "Failed", reason: "SecretNotFound" },
    ],
    ["a phase without conditions", { phase: "Ready" }, { phase: "Ready" }],
    ["no phase: nothing", { conditions: [] }, undefined],
    ["not a status", "Ready", undefined],
  ])("%s", (_case, status, expected) => {
    expect(phaseAndReason(status)).toEqual(expected);
  });
});

describe("statusChange", () => {
  it.each([
    ["Ready → Failed is listed", { phase: "Ready" }, STALLED, true],
    ["an unknown phase before → Failed is listed", undefined, STALLED, true],
    ["Failed before, for any reason, is not a change", { phase: "Failed", reason: "SecretNotFound" }, STALLED, false],
    ["→ Ready needs no attention", { phase: "Failed" }, aStatus("Ready"), false],
    ["→ Initializing needs no attention", undefined, aStatus("Initializing"), false],
  ])("%s", (_case, before, after, listed) => {
    expect(statusChange(before, after) !== undefined).toBe(listed);
  });
});

it("the report lists a parent that turns Failed beside restarts, by reason in the summary", () => {
  const unchanged = [{ kind: "Service", metadata: { name: "s" } }];
  const impacts = [
    parentImpact("sample two-pods.yaml", unchanged, unchanged, statusChange({ phase: "Ready" }, STALLED)),
    parentImpact("sample one-pod.yaml", unchanged, unchanged),
  ];
  const text = renderReport({ from: "0.2.0", to: "0.3.0", impacts });
  expect(text).toContain("- status turns Failed (UnsharedState): 1 parent — sample two-pods.yaml\n");
  expect(text).toContain(
    "## Status turns Stalled or Failed (1)\n\n- `sample two-pods.yaml`: Ready → **Failed (UnsharedState)**, children kept\n",
  );
  expect(text).toContain("Unchanged: 1 of 2 parents.");
});
