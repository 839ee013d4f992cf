import { deepMerge } from "../../../lib/config/doc";
import { type JsonMap } from "../../../lib/json";

const json = (text: string): JsonMap => JSON.parse(text) as JsonMap;

describe("deepMerge()", () => {
  it.each<[string, JsonMap, JsonMap, JsonMap]>([
    ["maps merge key by key", { a: { x: 1, y: 2 } }, { a: { y: 3, z: 4 } }, { a: { x: 1, y: 3, z: 4 } }],
    ["lists replace", { a: [1, 2] }, { a: [3] }, { a: [3] }],
    ["a scalar replaces a map", { a: { x: 1 } }, { a: "text" }, { a: "text" }],
    ["a map replaces a scalar", { a: 1 }, { a: { x: 1 } }, { a: { x: 1 } }],
    ["new keys follow the base's", { b: 1 }, { a: 2 }, { b: 1, a: 2 }],
  ])("%s", (_what, base, over, expected) => {
    const before = JSON.stringify([base, over]);
    const merged = deepMerge(base, over);
    expect(merged).toEqual(expected);
    expect(Object.keys(merged)).toEqual(Object.keys(expected));
    expect(JSON.stringify([base, over])).toBe(before); // inputs unchanged
  });

  it("keeps a `__proto__` key (which JSON may hold) as data, never as the prototype", () => {
    const merged = deepMerge(json('{"__proto__": {"polluted": 1}, "a": 1}'), json('{"__proto__": {"b": 2}}'));
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.hasOwn(merged, "__proto__")).toBe(true);
    expect(JSON.stringify(merged)).toBe('{"__proto__":{"polluted":1,"b":2},"a":1}');
    const fresh: { polluted?: unknown } = {};
    expect(fresh.polluted).toBeUndefined();
  });
});
