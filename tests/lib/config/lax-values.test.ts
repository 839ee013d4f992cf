/**
 * pydantic's lax mode, as facts: what a config class field of each type accepts from the values
 * YAML gives it. Each row was read from pydantic 2.14.1 (`TypeAdapter(t).validate_python(v)`,
 * the servers declare pydantic>=2.11.9) on the real server's Python; the schemas
 * (tests/fixtures/server-schemas/README.md, "Caveats") are stricter for numbers and booleans.
 */
import { laxValue } from "../../../lib/config/lax-values";

/** [JSON Schema type, value, what pydantic makes of it (undefined: refused)] */
const FACTS: [string, unknown, unknown][] = [
  // int: integral numbers, booleans and integer text; not fractions, exponents or null.
  ["integer", 5, 5],
  ["integer", 5.0, 5],
  ["integer", 5.5, undefined],
  ["integer", "5", 5],
  ["integer", " 5 ", 5],
  ["integer", "+5", 5],
  ["integer", "1_000", 1000],
  ["integer", "5.00", 5],
  ["integer", "05", 5],
  ["integer", "5.", undefined],
  ["integer", "1e3", undefined],
  ["integer", "0x10", undefined],
  ["integer", "5_", undefined],
  ["integer", "x", undefined],
  ["integer", true, 1],
  ["integer", false, 0],
  ["integer", null, undefined],
  ["integer", [1], undefined],
  ["integer", { a: 1 }, undefined],
  // float: any number, booleans, numeric text with exponents, inf and nan.
  ["number", 5, 5],
  ["number", 0.5, 0.5],
  ["number", "0.5", 0.5],
  ["number", " 0.5 ", 0.5],
  ["number", ".5", 0.5],
  ["number", "5.", 5],
  ["number", "1e3", 1000],
  ["number", "1_0.5", 10.5],
  ["number", "inf", Infinity],
  ["number", "Infinity", Infinity],
  ["number", "1e", undefined],
  ["number", "", undefined],
  ["number", "x", undefined],
  ["number", true, 1],
  ["number", null, undefined],
  // bool: true/false, 0 and 1, and pydantic's words in any case, not trimmed.
  ["boolean", true, true],
  ["boolean", 1, true],
  ["boolean", 0, false],
  ["boolean", 1.0, true],
  ["boolean", 2, undefined],
  ["boolean", -1, undefined],
  ["boolean", 0.5, undefined],
  ["boolean", "true", true],
  ["boolean", "TRUE", true],
  ["boolean", "Yes", true],
  ["boolean", "on", true],
  ["boolean", "t", true],
  ["boolean", "off", false],
  ["boolean", "n", false],
  ["boolean", "0", false],
  ["boolean", " true ", undefined],
  ["boolean", "", undefined],
  ["boolean", "x", undefined],
  ["boolean", null, undefined],
  // str (and SecretStr, Path, URLs): text only.
  ["string", "a", "a"],
  ["string", 5, undefined],
  ["string", 5.5, undefined],
  ["string", true, undefined],
  ["string", null, undefined],
  ["string", [1], undefined],
  ["string", { a: 1 }, undefined],
  // list and dict: no conversion from text.
  ["array", ["a"], ["a"]],
  ["array", "a", undefined],
  ["array", { a: 1 }, undefined],
  ["object", { a: 1 }, { a: 1 }],
  ["object", [1], undefined],
  ["object", "x", undefined],
  ["null", null, null],
  ["null", 0, undefined],
];

describe("what a field of each type accepts (pydantic 2, lax mode)", () => {
  it.each(FACTS)("%s given %j → %j", (type, value, expected) => {
    expect(laxValue(type, value)).toEqual(expected);
  });
});
