/**
 * Operator configuration: a mounted YAML or JSON file (`DISTRIBUTION_IMAGES_FILE`) mapping
 * distribution names to images, e.g. a mirror in a disconnected cluster:
 *
 *   starter: quay.io/acme/distribution-starter@sha256:…
 *
 * The same map as the Go operator's `image-overrides` key, so its ConfigMap can be mounted as
 * is. Applied with `withOverrides` (names must exist, images must be pinned). The file is
 * re-read when it changes (ConfigMap volumes are updated in place); a file that cannot be read
 * or parsed keeps the last good table. Problems are logged and noted in the status of the
 * parents they concern.
 */
import { readFileSync, statSync } from "node:fs";
import { parse } from "yaml";
import { isPlainObject } from "../json";
import { withOverrides, type DistributionTable } from "../distributions/table";
import { messageOf } from "../errors";

export interface ImageOverrides {
  /** The table to use now, and what is wrong with the file (ordered, stable wording). */
  current(): { readonly table: DistributionTable; readonly problems: readonly string[] };
}

export type OverridesLog = (level: "info" | "warn", message: string, fields: { [key: string]: unknown }) => void;

export interface ImageOverridesOptions {
  /** How often the file's modification time is looked at. @default 10 000 */
  readonly checkEveryMs?: number;
  readonly now?: () => number;
  readonly log?: OverridesLog;
}

export const FILE_VARIABLE = "DISTRIBUTION_IMAGES_FILE";

/** The file's text → name → image, or why it is not such a map. */
export function parseImageOverrides(
  text: string,
): { ok: true; overrides: Record<string, string>; problems: string[] } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = parse(text);
  } catch (error) {
    return { ok: false, error: `is not YAML or JSON (${messageOf(error).split("\n")[0]})` };
  }
  if (value === null || value === undefined) return { ok: true, overrides: {}, problems: [] };
  if (!isPlainObject(value)) return { ok: false, error: "must be a map of distribution name → image" };
  const overrides: Record<string, string> = {};
  const problems: string[] = [];
  for (const [name, image] of Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (typeof image === "string" && image.trim() !== "") overrides[name] = image.trim();
    else problems.push(`image override "${name}" ignored: the image must be a non-empty string`);
  }
  return { ok: true, overrides, problems };
}

/** Applies the text of the file to `base`. */
export function overriddenTable(
  base: DistributionTable,
  path: string,
  text: string,
): { table?: DistributionTable; problems: string[] } {
  const parsed = parseImageOverrides(text);
  if (!parsed.ok) return { problems: [`${FILE_VARIABLE} ${path} ${parsed.error}`] };
  const applied = withOverrides(base, parsed.overrides);
  return { table: applied.table, problems: [...parsed.problems, ...applied.problems].sort() };
}

export function createImageOverrides(
  path: string | undefined,
  base: DistributionTable,
  options: ImageOverridesOptions = {},
): ImageOverrides {
  if (!path) return { current: () => ({ table: base, problems: [] }) };
  const checkEveryMs = options.checkEveryMs ?? 10_000;
  const now = options.now ?? Date.now;
  const log = options.log ?? (() => undefined);
  let state: { table: DistributionTable; problems: readonly string[] } = { table: base, problems: [] };
  let seen = "";
  let loaded = false;
  let checkedAt = -Infinity;

  function load(): void {
    checkedAt = now();
    let stamp: string;
    let text: string;
    try {
      const stat = statSync(path!);
      stamp = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
      if (stamp === seen) return;
      text = readFileSync(path!, "utf8");
    } catch (error) {
      const code = isPlainObject(error) && typeof error.code === "string" ? error.code : "error";
      const problem = `${FILE_VARIABLE} ${path} cannot be read (${code}); using ${loaded ? "the images it named before" : "the built-in images"}`;
      if (!state.problems.includes(problem))
        log("warn", "Distribution image overrides unreadable", { file: path, code });
      state = { table: state.table, problems: [problem] };
      seen = "";
      return;
    }
    seen = stamp;
    const next = overriddenTable(base, path!, text);
    if (next.table) loaded = true;
    state = { table: next.table ?? state.table, problems: next.problems };
    const images = Object.fromEntries(state.table.map((e) => [e.name, e.image]));
    log(next.problems.length > 0 ? "warn" : "info", "Distribution image overrides loaded", {
      file: path,
      images,
      problems: next.problems,
    });
  }

  load();
  return {
    current() {
      if (now() - checkedAt >= checkEveryMs) load();
      return state;
    },
  };
}
