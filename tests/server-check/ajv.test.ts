/**
 * A quiet test run: every server model of every line compiles without ajv falling back to
 * console.warn (an unknown format is ignored with a warning and a stack trace per schema).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SCHEMA_TAGS } from "../../lib/distributions/releases";
import { pydanticAjv } from "./ajv";
import { providerIndex } from "./check";
import { SCHEMAS_DIR } from "./substitution";

const tags = SCHEMA_TAGS;
const schemaFiles = tags.flatMap((tag) => [
  join(tag, "stack-config.schema.json"),
  ...new Set(providerIndex(tag).map((entry) => join(tag, "providers", entry.schema))),
]);

describe("the ajv the server checkers use", () => {
  it("finds the models of every line", () => {
    expect(readdirSync(SCHEMAS_DIR).filter((name) => name.startsWith("v"))).toEqual([...tags]);
    expect(schemaFiles.length).toBeGreaterThan(tags.length * 5);
  });

  it.each(schemaFiles)("compiles %s without a warning", (file) => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined);
    try {
      pydanticAjv().compile(JSON.parse(readFileSync(join(SCHEMAS_DIR, file), "utf8")) as object);
      expect(warn.mock.calls).toEqual([]);
    } finally {
      warn.mockRestore();
    }
  });
});
