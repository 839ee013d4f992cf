/**
 * lib/config/adapted-base.ts: a kept base's adapted form is kept per line; it must be what
 * adapting a fresh parse of the same text gives (the plain path), for every bundled config on
 * every line (older lines' configs are adapted, newer ones refused), and hand out a copy the
 * generator may edit.
 */
import { bundledBaseConfig, bundledNames } from "../../../lib/distributions/bundled";
import { RELEASES } from "../../../lib/distributions/table";
import { readAdaptedBase } from "../../../lib/config/adapted-base";
import { parseYaml } from "../../../lib/config/yaml";

const texts = bundledNames().flatMap((name) =>
  RELEASES.flatMap((written) => {
    const text = bundledBaseConfig(name, written);
    return text === undefined ? [] : RELEASES.map((line) => [`${name}-${written}`, line, text] as const);
  }),
);

/** The plain path: a fresh parse, never kept, so never frozen and adapted every time. */
function plain(text: string, line: (typeof RELEASES)[number]) {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return readAdaptedBase(parsed.value as object, line);
}

describe("readAdaptedBase of a kept base", () => {
  it.each(texts)("%s on the %s line: the plain path's outcome, asked twice", (_file, line, text) => {
    const expected = plain(text, line);
    const first = readAdaptedBase(text, line);
    const again = readAdaptedBase(text, line);
    expect(first).toEqual(expected);
    expect(again).toEqual(expected);
    if (first.ok && again.ok) {
      // Each caller gets its own top level to edit, over the shared frozen parts.
      expect(Object.isFrozen(first.doc)).toBe(false);
      expect(first.doc).not.toBe(again.doc);
      expect(first.doc.providers).not.toBe(again.doc.providers);
    }
  });

  it("covers adapted and refused outcomes both", () => {
    const outcomes = texts.map(([, line, text]) => readAdaptedBase(text, line));
    expect(outcomes.some((o) => o.ok && o.notes.length > 0)).toBe(true);
    expect(outcomes.some((o) => !o.ok)).toBe(true);
  });
});
