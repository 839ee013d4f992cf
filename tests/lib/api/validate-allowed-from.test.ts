/** Label keys and values as apimachinery's validation (IsQualifiedName, IsValidLabelValue) judges them. */
import { isLabelKey, isLabelValue } from "../../../lib/api/validate-allowed-from";

describe("NetworkPolicy selector strings", () => {
  it.each([
    ["team", true],
    ["example.com/team", true],
    ["kubernetes.io/metadata.name", true],
    ["a.b_c-d", true],
    ["x".repeat(63), true],
    ["team=frontend", false],
    ["", false],
    ["/team", false],
    ["Example.com/team", false],
    ["team/", false],
    ["-team", false],
    ["x".repeat(64), false],
    [`${"a".repeat(254)}/team`, false],
    ["a/b/c", false],
    ["team frontend", false],
  ])("label key %j: %s", (key, valid) => {
    expect(isLabelKey(key)).toBe(valid);
  });

  it.each([
    ["monitoring", true],
    ["", true],
    ["My_NS.1", true],
    ["team a", false],
    ["-a", false],
    ["a".repeat(64), false],
  ])("label value %j: %s", (value, valid) => {
    expect(isLabelValue(value)).toBe(valid);
  });
});
