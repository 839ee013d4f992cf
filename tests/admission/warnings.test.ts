/** lib/admission/warnings.ts: warnings as kube-apiserver shows them (deduplicated, one line each, within its budget). */
import fc from "fast-check";
import {
  admissionWarnings,
  charCount,
  oneLine,
  printable,
  WARNING_CHARACTERS,
  WARNINGS_TOTAL_CHARACTERS,
} from "../../lib/admission/warnings";

const length = (text: string): number => Array.from(text).length;

describe("admissionWarnings", () => {
  it.each([
    ["nothing", [], []],
    ["a repeat", ["a: x", "b: y", "a: x"], ["a: x", "b: y"]],
    ["a line break and tabs", ["a: x\n  then\ty"], ["a: x then y"]],
    ["a control character", ["a: bell\u0007 rang"], ["a: bell rang"]],
    ["an empty one", ["", " \n", "a: x"], ["a: x"]],
    ["a repeat once made one line", ["a: x y", "a: x\ny"], ["a: x y"]],
    ["a long one, while the total fits", ["é".repeat(300)], ["é".repeat(300)]],
  ])("%s", (_what, said, shown) => {
    expect(admissionWarnings(said)).toEqual(shown);
  });

  it("past the total, cuts each to the apiserver's item size and counts what does not fit", () => {
    const said = Array.from({ length: 40 }, (_, i) => `spec.x[${i}]: ${"w".repeat(300)}`);
    const shown = admissionWarnings(said);
    const last = shown[shown.length - 1]!;
    const kept = shown.slice(0, -1);
    expect(kept.every((w, i) => length(w) === WARNING_CHARACTERS && w.startsWith(`spec.x[${i}]: `))).toBe(true);
    expect(last).toBe(
      `${40 - kept.length} more warning(s) not shown (kube-apiserver keeps ${WARNINGS_TOTAL_CHARACTERS} characters); llsd validate lists them all`,
    );
    expect(shown.reduce((n, w) => n + length(w), 0)).toBeLessThanOrEqual(WARNINGS_TOTAL_CHARACTERS);
    expect(kept.length).toBe(Math.floor((WARNINGS_TOTAL_CHARACTERS - 80) / WARNING_CHARACTERS));
  });

  it("keeps them all, whole, at exactly the total", () => {
    const said = ["a".repeat(WARNINGS_TOTAL_CHARACTERS - 1000), "b".repeat(1000)];
    expect(admissionWarnings(said)).toEqual(said);
  });
});

describe("the one-line forms skip texts that are one line already: the same as the plain replacements", () => {
  // Words, single and double spaces, every kind of whitespace and control character, surrogates.
  const unit = fc.constantFrom(
    "a",
    "é",
    " ",
    "  ",
    "\n",
    "\t",
    "\r",
    "\u0007",
    "\u0085",
    "\u00a0",
    "\u2028",
    "\ufeff",
    "\ud83d",
    "\ude00",
    "\ud83d\ude00",
  );
  const text = fc.string({ unit, maxLength: 12 });

  it("printable", () => {
    const plain = (t: string): string =>
      t
        .replace(/\s+/g, " ")
        .replace(/\p{Cc}/gu, "")
        .trim();
    fc.assert(
      fc.property(text, (t) => printable(t) === plain(t)),
      { numRuns: 2000 },
    );
  });

  it("oneLine", () => {
    fc.assert(
      fc.property(text, (t) => oneLine(t) === t.replace(/\s+/g, " ").trim()),
      { numRuns: 2000 },
    );
  });

  it("charCount", () => {
    fc.assert(
      fc.property(text, (t) => charCount(t) === length(t)),
      { numRuns: 2000 },
    );
  });
});
