/**
 * One way to read every start-up setting of the service (service.ts, sync-settings.ts,
 * auth.ts, main.ts): a value is trimmed, empty means unset (the default), and anything else
 * must be exactly one of the allowed values — a typo must stop the start, never quietly mean
 * the default. The error names the variable, the value and what is allowed; main.ts logs it as
 * the `fatal` "Bad configuration" line before anything listens.
 *
 * One rule for every boolean: `true` or `false`, nothing else (no 1/0/yes/no, no `True`): a
 * Deployment's env is read by people, and one spelling is the one they will find in the docs.
 */
import { isIP } from "node:net";
import { normalizeRegistryHost } from "../lib/oci/reference";

type Env = NodeJS.ProcessEnv;

/** The value as the error shows it: quoted (control characters escaped), long ones cut. */
function shown(value: string): string {
  const quoted = JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  return quoted.replace(/\/\/[^/@\s]*@/g, "//***@"); // a URL's user:password never reaches the log
}

export class BadSetting extends Error {
  constructor(
    readonly variable: string,
    value: string,
    allowed: string,
  ) {
    super(`${variable} must be ${allowed}, got ${shown(value)}`);
  }
}

/** The trimmed value, or undefined when unset or blank. */
export function setting(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function booleanSetting(env: Env, name: string, fallback: boolean): boolean {
  const value = setting(env, name);
  if (value === undefined) return fallback;
  if (value === "true" || value === "false") return value === "true";
  throw new BadSetting(name, env[name]!, "true or false");
}

export function enumSetting<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = setting(env, name);
  if (value === undefined) return fallback;
  const match = allowed.find((a) => a === value);
  if (match !== undefined) return match;
  throw new BadSetting(name, env[name]!, `one of ${allowed.join(", ")}`);
}

export interface NumberRule {
  /** Whole numbers only (a port, a count, milliseconds). */
  readonly integer: boolean;
  readonly min: number;
  /** `min` itself refused (a timeout of 0). */
  readonly exclusiveMin?: boolean;
  readonly max?: number;
  /** What the error calls it: `a positive integer`, `a number of MiB (0 turns the memo off)`. */
  readonly means: string;
}

/** Plain decimal digits only: `0x10`, `1e3`, `Infinity` and `5ms` are refused, not converted. */
export function numberSetting(env: Env, name: string, rule: NumberRule, fallback: number): number {
  const value = setting(env, name);
  if (value === undefined) return fallback;
  const n = (rule.integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(value) ? Number(value) : NaN;
  const inRange = n > rule.min || (n === rule.min && rule.exclusiveMin !== true);
  if (Number.isFinite(n) && inRange && (rule.max === undefined || n <= rule.max)) return n;
  throw new BadSetting(name, env[name]!, rule.means);
}

const LABEL = "[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?";
const REGISTRY_HOST = new RegExp(`^((\\*\\.)?${LABEL}(\\.${LABEL})*|\\[[0-9a-f:.]+\\])(:\\d{1,5})?$`);

/** Comma-separated registries: `host[:port]` or `*.suffix` each (a scheme or path is dropped, as in a dockerconfigjson). */
export function registryListSetting(env: Env, name: string): string[] {
  const entries = (setting(env, name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!REGISTRY_HOST.test(normalizeRegistryHost(entry)))
      throw new BadSetting(name, entry, "a comma-separated list of host[:port] or *.suffix entries");
  }
  return entries;
}

/** A Kubernetes namespace name (RFC 1123 label). */
export function namespaceSetting(env: Env, name: string, fallback: string): string {
  const value = setting(env, name);
  if (value === undefined) return fallback;
  if (new RegExp(`^${LABEL}$`).test(value)) return value;
  throw new BadSetting(name, env[name]!, "a namespace name (lowercase letters, digits and '-', at most 63)");
}

/** An absolute http(s) URL. */
export function urlSetting(env: Env, name: string): string | undefined {
  const value = setting(env, name);
  if (value === undefined) return undefined;
  if (URL.canParse(value) && ["http:", "https:"].includes(new URL(value).protocol)) return value;
  throw new BadSetting(name, env[name]!, "an http:// or https:// URL");
}

/** An address to listen on: an IPv4 or IPv6 literal (`127.0.0.1`, `::1`, `::`) or a host name (`localhost`). */
export function hostSetting(env: Env, name: string): string | undefined {
  const value = setting(env, name);
  if (value === undefined) return undefined;
  if (isIP(value) !== 0 || new RegExp(`^${LABEL}(\\.${LABEL})*$`).test(value)) return value;
  throw new BadSetting(name, env[name]!, "an IP address (127.0.0.1, ::1, 0.0.0.0, ::) or a host name");
}
