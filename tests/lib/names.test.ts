/** Every name and label value derived from a CR's name, against the limit Kubernetes puts on it (lib/names.ts). */
import { DERIVED_NAMES, derivedNameProblems, LONGEST_NAME, NAME_FORMATS, names } from "../../lib/names";
import { sync } from "../../lib/sync/sync";
import { aParent, aRequest, deps, observedFrom } from "../sync-builders";

describe("derived name limits", () => {
  it("cover every name in lib/names.ts", () => {
    const covered = new Set(DERIVED_NAMES.map((d) => d.of("probe")));
    for (const [key, of] of Object.entries(names))
      expect({
        key,
        covered: covered.has(key === "config" ? of("probe", "0".repeat(64)) : (of as (p: string) => string)("probe")),
      }).toEqual({ key, covered: true });
  });

  it("the longest name that fits is 55 (the Service: <name>-service, a DNS-1035 label of at most 63)", () => {
    expect(LONGEST_NAME).toBe(55);
  });

  it.each(DERIVED_NAMES.map((d) => [d.what, d] as const))(
    "%s: fits for a name of the longest length, and its limit is the format's",
    (_what, d) => {
      const value = d.of("a".repeat(LONGEST_NAME));
      const format = NAME_FORMATS[d.format];
      expect(value.length).toBeLessThanOrEqual(format.max);
      expect(value).toMatch(format.pattern);
    },
  );

  it.each([
    [LONGEST_NAME, []],
    [LONGEST_NAME + 1, ["Service"]],
    [
      246,
      [
        "Service",
        "ConfigMap",
        "NetworkPolicy",
        "CA bundle ConfigMap",
        "derived Postgres Secret",
        "label app.kubernetes.io/instance",
      ],
    ],
  ] as const)("a %i-character name: refused for %j", (length, refused) => {
    const problems = derivedNameProblems("a".repeat(length));
    expect(problems.map((p) => /^gives the (.+?) "/.exec(p)?.[1])).toEqual(expect.arrayContaining([...refused]));
    if (refused.length === 0) expect(problems).toEqual([]);
    for (const p of problems) expect(p).toMatch(/is at most \d+\. Use a name of at most 55 characters/);
  });

  it("the sync refuses a name whose children Kubernetes would reject: Failed, children kept", () => {
    const name = "a".repeat(56);
    const first = sync(aRequest(aParent({ distribution: { name: "starter" } }, { name: "a".repeat(55) })), deps());
    const kept = observedFrom(first.children);
    const r = sync(aRequest(aParent({ distribution: { name: "starter" } }, { name }), kept), deps());
    expect(r.status.phase).toBe("Failed");
    expect((r.status.conditions as { type: string; reason: string; message: string }[])[0]).toMatchObject({
      type: "ConfigGenerated",
      reason: "InvalidName",
      message: expect.stringContaining("a DNS-1035 label is at most 63. Use a name of at most 55 characters"),
    });
    expect(r.children.length).toBe(kept.length);
  });
});
