/**
 * `--allow-weaker`: a conversion after which the server would enforce less (authentication, TLS,
 * a NetworkPolicy rule, a store: lib/ogx/weaker.ts) is refused, each loss printed at its field,
 * unless the user says so with the flag; then each loss is a warning and the conversion goes on.
 */
import { formatErrors, type FieldError } from "../errors";
import type { Side } from "../ogx/weaker";
import type { CliIo } from "./io";

export interface WeakerOptions {
  /** `--allow-weaker`: print the losses as warnings instead of refusing. */
  readonly allowWeaker?: boolean;
}

export const ALLOW_WEAKER_HELP = `--allow-weaker converts even when the result would enforce less (auth,
  TLS, a NetworkPolicy rule, a store): without it each such loss is an
  error with its field path (exit 1); with it, the same list as warnings.`;

/** True when the conversion may go on: no losses, or losses allowed (then printed as warnings). */
export function weakerAllowed(
  io: CliIo,
  { name, lost, target }: { readonly name: string; readonly lost: readonly FieldError[]; readonly target: Side },
  options: WeakerOptions,
): boolean {
  if (lost.length === 0) return true;
  if (options.allowWeaker === true) {
    for (const l of lost) io.stderr(`warning: ${name}: ${l.path}: weaker (--allow-weaker): ${l.message}\n`);
    return true;
  }
  io.stderr(
    `error: ${name}: the ${target} would enforce less than what it is converted from; keep these in the ${target} yourself, or pass --allow-weaker to convert anyway (the same list, as warnings):\n${formatErrors(lost)}\n`,
  );
  return false;
}

/** `a` is `b` or a field under it. */
const within = (a: string, b: string): boolean => a === b || a.startsWith(`${b}.`) || a.startsWith(`${b}[`);

/** The converter's warnings, less those about a lost field (the loss says it, and more). */
export const warningsBeside = (warnings: readonly FieldError[], lost: readonly FieldError[]): FieldError[] =>
  warnings.filter((w) => !lost.some((l) => within(w.path, l.path) || within(l.path, w.path)));
