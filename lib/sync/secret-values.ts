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

function problem(value: string, target: SecretTarget): string | undefined {
  const kind = convertedKind(value);
  if (kind === "null") return READS_AS.null;
  if (expandsHome(value))
    return `starts with "~", which the server expands to a home directory, so ${target.field} would get another value`;
  if (kind === "string" || target.kinds === undefined || target.kinds.includes("*")) return undefined;
  if ([...LETTER[kind]].some((letter) => target.kinds!.includes(letter))) return undefined;
  return `${READS_AS[kind]}, and ${target.field} takes text`;
}

/** One error per Secret key the server would misread; `valueOf` reads the value the pod will get. */
export function misreadSecrets(
  env: readonly SecretEnv[],
  targets: readonly SecretTarget[],
  valueOf: (e: SecretEnv) => string | undefined,
  describe: (e: SecretEnv) => string,
): FieldError[] {
  return env.flatMap((e) => {
    const value = valueOf(e);
    if (value === undefined) return [];
    const found = targets
      .filter((t) => t.name === e.name)
      .map((t) => problem(value, t))
      .find((p) => p !== undefined);
    if (found === undefined) return [];
    const fix =
      found === READS_AS.null
        ? "put the value in the Secret"
        : "no quoting in config.yaml survives that substitution, so change the value to text that does not read as a number or boolean";
    return [fieldError(e.path, `${describe(e)} ${found}; ${fix}`)];
  });
}
