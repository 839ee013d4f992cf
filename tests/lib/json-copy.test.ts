/**
 * copyJson (lib/json-copy.ts) promises `structuredClone`'s result, faster, for JSON-shaped data,
 * and hands anything else to `structuredClone` itself. Checked against `structuredClone`.
 */
import fc from "fast-check";
import { copyJson } from "../../lib/json-copy";

/** `[1, <hole>, 3]`: index 1 is never assigned (a sparse array, as JSON cannot write one). */
function withHole(): number[] {
  const list: number[] = [];
  list[0] = 1;
  list[2] = 3;
  return list;
}

describe("copyJson", () => {
  it("equals structuredClone's copy for any JSON value, and shares nothing with the original", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copied = copyJson(value);
        expect(copied).toStrictEqual(structuredClone(value));
        if (typeof value === "object" && value !== null) expect(copied).not.toBe(value);
      }),
      { numRuns: 1000 },
    );
  });

  it("copies nested objects rather than sharing them", () => {
    const original = { a: { b: [1, { c: 2 }] } };
    const copied = copyJson(original);
    (copied.a.b[1] as { c: number }).c = 3;
    expect(original.a.b[1]).toEqual({ c: 2 });
  });

  it("keeps shared and circular references as structuredClone does", () => {
    const shared = { x: 1 };
    const circular: { self?: unknown; left: object; right: object } = { left: shared, right: shared };
    circular.self = circular;
    const copied = copyJson(circular);
    expect(copied.self).toBe(copied);
    expect(copied.left).toBe(copied.right);
    expect(copied.left).not.toBe(shared);
  });

  it("keeps a __proto__ key as an own property, never as the prototype", () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as { a: number };
    const copied = copyJson(parsed);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(["__proto__", "a"]);
    const fresh: { polluted?: boolean } = {};
    expect(fresh.polluted).toBeUndefined();
  });

  it.each([
    ["a Date", { when: new Date(0) }],
    ["a Map", { m: new Map([["k", 1]]) }],
    ["an array with a hole", { list: withHole() }],
  ])("hands %s to structuredClone and gives its result", (_what, value) => {
    expect(copyJson(value)).toStrictEqual(structuredClone(value));
  });

  it("nesting too deep for any recursion is the RangeError structuredClone throws (request bodies stop at 128 levels)", () => {
    const deep = JSON.parse(`${"[".repeat(50_000)}${"]".repeat(50_000)}`) as unknown;
    expect(() => structuredClone(deep)).toThrow(/Maximum call stack size exceeded/); // a RangeError of another realm under jest
    expect(() => copyJson(deep)).toThrow(/Maximum call stack size exceeded/);
  });

  it("throws what structuredClone throws for a function", () => {
    const value = { f: () => 1 };
    expect(() => structuredClone(value)).toThrow();
    expect(() => copyJson(value)).toThrow(expect.objectContaining({ name: "DataCloneError" }) as Error);
  });
});
