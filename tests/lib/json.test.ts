/** Annotation entry paths must parse back to exactly the keys they were written from. */
import fc from "fast-check";
import { childPath, define, formatPath, getPath, parsePath, setPath, type JsonMap } from "../../lib/json";

/** Keys as users write them (identifiers, mostly) and any string at all. */
const KEY = fc.oneof(fc.stringMatching(/^[A-Za-z_][\w-]{0,8}$/), fc.string({ unit: "binary" }));

describe("formatPath() / parsePath()", () => {
  it.each([
    [["spec", "server", "containerSpec", "name"], "spec.server.containerSpec.name"],
    [["spec", "x.y"], 'spec["x.y"]'],
    [["status", 'a"b', "c"], 'status["a\\"b"].c'],
    [["spec", ""], 'spec[""]'],
  ])("writes %j as %s", (segments, text) => {
    expect(formatPath(segments)).toBe(text);
    expect(parsePath(text)).toEqual(segments);
  });

  it("parses back any keys, whatever they hold", () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: "binary" }), { minLength: 1, maxLength: 5 }), (segments) => {
        expect(parsePath(formatPath(segments))).toEqual(segments);
      }),
      { numRuns: 1000 },
    );
  });

  it("childPath() extends a formatted path exactly as formatPath() writes the longer one", () => {
    fc.assert(
      fc.property(fc.array(KEY, { minLength: 2, maxLength: 5 }), (segments) => {
        const parent = formatPath(segments.slice(0, -1));
        expect(childPath(parent, segments[segments.length - 1] ?? "")).toBe(formatPath(segments));
      }),
      { numRuns: 1000 },
    );
  });

  it.each(["", ".spec", "spec.", "spec..x", 'spec["x"', 'spec["server"]', "spec[1]", 'spec["\\q"]'])(
    "refuses %j",
    (text) => {
      expect(parsePath(text)).toBeUndefined();
    },
  );
});

describe("own-property access", () => {
  it("treats `__proto__` as a field, never as the prototype", () => {
    const object: JsonMap = {};
    setPath(object, ["__proto__", "polluted"], true);
    define(object, "constructor", 1);

    expect(getPath(object, ["__proto__", "polluted"])).toBe(true);
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    const fresh: JsonMap = {};
    expect(fresh.polluted).toBeUndefined();
    expect(getPath({}, ["toString"])).toBeUndefined();
  });
});
