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

/** One printable line: whitespace runs (line breaks too) become a space, other control characters go. */
function printable(text: string): string {
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
  const distinct = [...new Set(said.map(printable))].filter((text) => text !== "");
  const total = distinct.reduce((n, text) => n + chars(text).length, 0);
  if (total <= WARNINGS_TOTAL_CHARACTERS) return distinct;
  const out: string[] = [];
  let used = 0;
  // Room for the last line, which says how many were left out.
  const budget = WARNINGS_TOTAL_CHARACTERS - 80;
  for (const text of distinct.map(cut)) {
    const length = chars(text).length;
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
