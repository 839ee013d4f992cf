/**
 * Secret values the server would misread. Its `${env.…}` substitution converts the whole
 * substituted text — all digits to a number, true/false to a boolean, empty to nothing — and
 * expands a leading `~`; no quoting in config.yaml survives it. A value that a key then
 * refuses (a string key given a number) or that stops the server (empty) is reported before
 * it reaches the server, by Secret, key and field path; the value itself never is.
 */
import { fieldError, type FieldError } from "../errors";
import { convertedKind, expandsHome, type ServerValueKind } from "../config/env-substitution";
import type { SecretEnv } from "../config/providers";
import type { SecretTarget } from "../config/secret-targets";

const READS_AS: { readonly [k in ServerValueKind]: string } = {
  null: "is empty, which the server treats as unset: it stops at startup",
  bool: "is true or false, which the server's ${env…} substitution turns into a boolean",
  int: "is all digits, which the server's ${env…} substitution turns into a number",
  float: "reads as a number (e.g. 1e5, 1.5, inf), which the server's ${env…} substitution turns into one",
  string: "",
};
const LETTER: { readonly [k in ServerValueKind]: string } = {
  null: "z",
  bool: "b",
  int: "in",
  float: "n",
  string: "s",
};

function problem(value: string, kind: ServerValueKind, target: SecretTarget): string | undefined {
  if (kind === "null") return target.defaulted ? undefined : READS_AS.null;
  if (expandsHome(value))
    return `starts with "~", which the server expands to a home directory, so ${target.field} would get another value`;
  const kinds = target.kinds;
  if (kind === "string" || kinds === undefined || kinds.includes("*")) return undefined;
  for (const letter of LETTER[kind]) if (kinds.includes(letter)) return undefined;
  return `${READS_AS[kind]}, and ${target.field} takes text`;
}

/** The first problem of `value` at a key that reads the variable `name`, if any. */
function firstProblem(value: string, name: string, targets: readonly SecretTarget[]): string | undefined {
  let kind: ServerValueKind | undefined; // once per variable, not once per key that reads it
  for (const target of targets) {
    if (target.name !== name) continue;
    kind ??= convertedKind(value);
    const found = problem(value, kind, target);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** One error per Secret key the server would misread; `valueOf` reads the value the pod will get. */
export function misreadSecrets(
  env: readonly SecretEnv[],
  targets: readonly SecretTarget[],
  valueOf: (e: SecretEnv) => string | undefined,
  describe: (e: SecretEnv) => string,
): FieldError[] {
  const errors: FieldError[] = [];
  for (const e of env) {
    const value = valueOf(e);
    const found = value === undefined ? undefined : firstProblem(value, e.name, targets);
    if (found === undefined) continue;
    const fix =
      found === READS_AS.null
        ? "put the value in the Secret"
        : "no quoting in config.yaml survives that substitution, so change the value to text that does not read as a number or boolean";
    errors.push(fieldError(e.path, `${describe(e)} ${found}; ${fix}`));
  }
  return errors;
}
