/**
 * The command line of one `llsd` command: its own options only, each typo named with the option it
 * meant ("did you mean"), never Node's parseArgs text (which quotes the argument unbalanced).
 */
import { parseArgs } from "node:util";
import { thrownMessage } from "../errors";
import { meant } from "../suggest";
import { UsageError } from "./io";

export type Options = { readonly [name: string]: { readonly type: "string" | "boolean" } };

export interface Parsed {
  readonly values: { readonly [name: string]: string | undefined };
  /** The boolean options given (`--adopt`). */
  readonly flags: ReadonlySet<string>;
  readonly positionals: readonly string[];
}

/** The first line of a thrown error's message (undefined when it has none). */
export function firstLine(error: unknown): string | undefined {
  return thrownMessage(error)?.split("\n")[0];
}

/** An option the command does not take, named with the one it meant or the ones it takes. */
function unknownOption(command: string, args: readonly string[], options: Options): string | undefined {
  const flags = Object.keys(options).map((o) => `--${o}`);
  for (const arg of args) {
    if (arg === "--") return undefined; // what follows is positional
    if (!arg.startsWith("-") || arg === "-") continue; // `-` is stdin
    const flag = arg.split("=")[0] ?? arg;
    if (flags.includes(flag)) continue;
    const takes = flags.length === 0 ? "no options" : flags.join(", ");
    return `unknown option ${JSON.stringify(flag)}${meant(flag, flags, `; llsd ${command} takes ${takes}`)}`;
  }
  return undefined;
}

export function parsed(command: string, args: readonly string[], options: Options = {}): Parsed {
  const unknown = unknownOption(command, args, options);
  if (unknown !== undefined) throw new UsageError(unknown);
  try {
    const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options, strict: true });
    const strings: { [name: string]: string | undefined } = {};
    const flags = new Set<string>();
    for (const [name, value] of Object.entries(values)) {
      if (value === true) flags.add(name);
      else if (typeof value === "string") strings[name] = value;
    }
    return { values: strings, flags, positionals };
  } catch (error) {
    throw new UsageError(firstLine(error) ?? "bad arguments");
  }
}

/** The one FILE a command takes (`-` reads stdin). */
export function exactlyOne(command: string, positionals: readonly string[]): string {
  if (positionals.length !== 1 || positionals[0] === undefined)
    throw new UsageError(`${command} takes exactly one FILE`);
  return positionals[0];
}

/** A value that must be one of `allowed`: the value given, and the one it is a typo of. */
export function oneOf<T extends string>(option: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === value);
  if (found !== undefined) return found;
  throw new UsageError(
    `${option} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}${meant(value, allowed, "")}`,
  );
}
