/**
 * Admission warnings as kube-apiserver shows them (k8s.io/apiserver, endpoints/filters/warning.go
 * and apimachinery's `NewWarningHeader`): it drops a warning that is empty, repeats an earlier
 * one, or holds a control character (a line break too), and once the warnings of one response
 * pass 4096 characters in all it cuts each to 256 and drops the rest. So each is made one
 * printable line here, repeats go, and when all of them would pass the total, each is cut to
 * 256 and what does not fit is counted in a last warning instead of vanishing.
 */

/** All warnings of one response, in characters (Unicode code points, Go's runes). */
export const WARNINGS_TOTAL_CHARACTERS = 4096;
/** One warning, once the total is exceeded. */
export const WARNING_CHARACTERS = 256;

const chars = (text: string): string[] => Array.from(text);

/** `chars(text).length` without the array: a surrogate pair is one character (a lone one counts alone). */
export function charCount(text: string): number {
  if (!/[\uD800-\uDFFF]/.test(text)) return text.length; // the usual case
  return text.length - (text.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g)?.length ?? 0);
}

/**
 * Whitespace other than a single space between words? Where there is none, a text is already one
 * line: replacing each run of whitespace would copy it, space by space, into an equal string.
 */
function loose(text: string): boolean {
  // One character class and three plain searches: an alternation would try each at every character.
  return /[^\S ]/.test(text) || text.includes("  ") || text.startsWith(" ") || text.endsWith(" ");
}

/** Whitespace runs (line breaks too) made one space, the ends trimmed. */
export function oneLine(text: string): string {
  return loose(text) ? text.replace(/\s+/g, " ").trim() : text;
}

/** One printable line: whitespace runs (line breaks too) become a space, other control characters go. */
export function printable(text: string): string {
  if (!loose(text) && !/\p{Cc}/u.test(text)) return text;
  return text
    .replace(/\s+/g, " ")
    .replace(/\p{Cc}/gu, "")
    .trim();
}

function cut(text: string): string {
  const all = chars(text);
  return all.length <= WARNING_CHARACTERS ? text : `${all.slice(0, WARNING_CHARACTERS - 1).join("")}…`;
}

/** The warnings to send, in order (see the file comment). */
export function admissionWarnings(said: readonly string[]): string[] {
  if (said.length === 0) return [];
  const distinct = [...new Set(said.map(printable))].filter((text) => text !== "");
  const total = distinct.reduce((n, text) => n + charCount(text), 0);
  if (total <= WARNINGS_TOTAL_CHARACTERS) return distinct;
  const out: string[] = [];
  let used = 0;
  // Room for the last line, which says how many were left out.
  const budget = WARNINGS_TOTAL_CHARACTERS - 80;
  for (const text of distinct.map(cut)) {
    const length = charCount(text);
    if (used + length > budget) break;
    out.push(text);
    used += length;
  }
  const left = distinct.length - out.length;
  return [
    ...out,
    `${left} more warning(s) not shown (kube-apiserver keeps ${WARNINGS_TOTAL_CHARACTERS} characters); llsd validate lists them all`,
  ];
}
