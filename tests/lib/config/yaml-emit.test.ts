import fc from "fast-check";
import { parse } from "yaml";
import { emitYaml, scalarText, type KeyOrder } from "../../../lib/config/yaml-emit";
import { deepFreeze } from "../../../lib/json-copy";
import { pyyamlLoadAll } from "../../pyyaml";

const TRICKY = [
  "yes",
  "No",
  "ON",
  "off",
  "y",
  "n",
  "null",
  "Null",
  "~",
  "true",
  "False",
  "1",
  "1.0",
  "-1",
  "+1",
  "0x1f",
  "0o17",
  "017",
  "1_000",
  "12:30",
  "1:20:30",
  "2024-01-01",
  "2001-12-14t21:59:43.10-05:00",
  ".inf",
  "-.inf",
  ".nan",
  "e5",
  "1e5",
  "a: b",
  "a #b",
  "#x",
  "- x",
  "-",
  "[x]",
  "{x}",
  "@x",
  "`x",
  "x:",
  "x:y",
  "!tag",
  "&anchor",
  "*alias",
  "|",
  ">",
  "%x",
  "'q'",
  '"q"',
  "multi\nline",
  "",
  " lead",
  "trail ",
  "tab\there",
  "${env.X:=}",
  "${env.VLLM_URL:+vllm}",
  "~/.llama/x",
  "http://a:8000/v1",
  "remote::vllm",
  "héllo",
  "<<",
  "=",
  "?",
  "? x",
  "x,y",
  "a\\b",
  "\u2028",
];

describe("emitYaml()", () => {
  it.each(TRICKY)("writes %j so that YAML 1.2 reads back the same string", (text) => {
    expect(parse(emitYaml({ key: text, list: [text] }))).toEqual({ key: text, list: [text] });
  });

  it("writes every tricky string so that PyYAML safe_load (the server) reads back the same string", () => {
    const texts = TRICKY.map((t) => emitYaml({ [t || "empty"]: t, list: [t] }));
    expect(pyyamlLoadAll(texts)).toEqual(TRICKY.map((t) => ({ [t || "empty"]: t, list: [t] })));
  });

  it.each([
    ["${env.OLLAMA_URL:=http://localhost:11434/v1}", "${env.OLLAMA_URL:=http://localhost:11434/v1}"],
    ["remote::vllm", "remote::vllm"],
    ["yes", '"yes"'],
    ["2", '"2"'],
    ["a b", '"a b"'],
  ])("writes %j as %s, plain where the server's own files are plain", (value, text) => {
    expect(scalarText(value)).toBe(text);
  });

  it("writes nested maps, lists of maps, lists of lists and empty collections", () => {
    const value = { a: { b: [1, { c: [] as unknown[], d: {} }, [2, [3]]], e: null, f: true }, g: [] as unknown[] };
    expect(emitYaml(value)).toBe(
      "a:\n  b:\n  - 1\n  - c: []\n    d: {}\n  - - 2\n    - - 3\n  e: null\n  f: true\ng: []\n",
    );
    expect(parse(emitYaml(value))).toEqual(value);
  });

  it("round-trips arbitrary JSON through the yaml parser", () => {
    // JSON has no -0: compare with what JSON data (a config) can hold.
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (value) => {
        expect(parse(emitYaml(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it("writes a frozen value (kept text) exactly as the same value unfrozen, wherever it appears", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (value) => {
        const mutable: unknown = JSON.parse(JSON.stringify(value));
        const frozen: unknown = JSON.parse(JSON.stringify(value));
        deepFreeze(frozen);
        // The same frozen object first in a list, later in it, in a list in a list, and under a key.
        const places = (v: unknown): unknown => ({ list: [v, 1, v], nested: [[v, v]], key: { v } });
        const expected = emitYaml(places(mutable));
        expect(emitYaml(places(frozen))).toBe(expected);
        expect(emitYaml(places(frozen))).toBe(expected); // from the kept text
      }),
      { numRuns: 300 },
    );
  });

  it("writes a frozen value with each key order as the same value unfrozen with that order", () => {
    const sorted: KeyOrder = (keys) => [...keys].sort();
    const reversed: KeyOrder = (keys, top) => (top ? keys : [...keys].reverse());
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (value) => {
        const mutable: unknown = JSON.parse(JSON.stringify(value));
        const frozen: unknown = JSON.parse(JSON.stringify(value));
        deepFreeze(frozen);
        const places = (v: unknown): unknown => ({ list: [v], key: { v } });
        // Each order after the others: a text kept for one order must not answer another.
        for (const order of [undefined, sorted, reversed, sorted, undefined]) {
          expect(emitYaml(places(frozen), order)).toBe(emitYaml(places(mutable), order));
          expect(emitYaml(frozen, order)).toBe(emitYaml(mutable, order));
        }
      }),
      { numRuns: 200 },
    );
  });

  it("round-trips arbitrary JSON through PyYAML", () => {
    const values = fc.sample(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), { numRuns: 300 });
    expect(pyyamlLoadAll(values.map((v) => emitYaml(v)))).toEqual(JSON.parse(JSON.stringify(values)));
  });
});
