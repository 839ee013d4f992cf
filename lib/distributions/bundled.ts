/**
 * Base configs bundled with the service, one per distribution and release
 * (`base/<name>-<release>.yaml`). They are the fallback when a distribution image carries no
 * config labels (every 0.7 and 0.8 image; 1.x images carry them since 1.2) or image reading
 * is off. The files are written for this project; each one's header says how and why it
 * differs from the upstream config.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { errorCode } from "../errors";
import { DEFAULT_DISTRIBUTIONS, GO_OPERATOR_DISTRIBUTIONS, RELEASES, type Release } from "./table";

/** Next to this module, so the same path works when run from source by tsx and by ts-jest. */
const BASE_DIR = join(__dirname, "base");

/** `<name>-<major>.<minor>.yaml`; the name may itself contain dashes (`postgres-demo`). */
const BASE_FILE = /^([a-z0-9]+(?:-[a-z0-9]+)*)-(\d+\.\d+)\.yaml$/;

/** The files never change while the process runs; read each at most once. */
const textByFile = new Map<string, string>();
let namesOnDisk: readonly string[] | undefined;

function isRelease(value: string | undefined): value is Release {
  return RELEASES.some((release) => release === value);
}

/** Distribution names with at least one bundled base config, sorted. */
export function bundledNames(): string[] {
  namesOnDisk ??= [
    ...new Set(
      readdirSync(BASE_DIR).flatMap((file) => {
        const match = BASE_FILE.exec(file);
        return match?.[1] !== undefined && isRelease(match[2]) ? [match[1]] : [];
      }),
    ),
  ].sort();
  return [...namesOnDisk];
}

/**
 * The YAML text of the bundled base config, or undefined when none exists for that name and
 * release. The name is checked against the bundled names first, so no caller-supplied string
 * ever becomes part of a file path.
 */
export function bundledBaseConfig(name: string, release: Release): string | undefined {
  if (!isRelease(release) || !bundledNames().includes(name)) return undefined;
  const file = `${name}-${release}.yaml`;
  const cached = textByFile.get(file);
  if (cached !== undefined) return cached;
  let text: string;
  try {
    text = readFileSync(join(BASE_DIR, file), "utf8");
  } catch (error) {
    // A name bundled for only one release: a miss, not a fault.
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
  textByFile.set(file, text);
  return text;
}

/** `spec.distribution` as normalized: a name, an image, or neither. */
type DistributionRef =
  | { readonly kind: "name"; readonly name: string }
  | { readonly kind: "image"; readonly image: string }
  | { readonly kind: "invalid" };

/**
 * The distribution whose bundled configs serve `d`: its name, or the name whose pinned image it
 * names exactly (`llsd migrate` pins the Go operator's `…distribution-starter:0.7.1` to keep a
 * CR on its line; that image carries no config labels, and the bundled config is written for it).
 */
export function bundledNameOf(d: DistributionRef): string | undefined {
  if (d.kind === "name") return d.name;
  if (d.kind !== "image") return undefined;
  return [...DEFAULT_DISTRIBUTIONS, ...GO_OPERATOR_DISTRIBUTIONS].find((entry) => entry.image === d.image)?.name;
}

/** The bundled base config for `d` on `release`, if there is one (bundledNameOf). */
export function bundledConfigOf(d: DistributionRef, release: Release): string | undefined {
  const name = bundledNameOf(d);
  return name === undefined ? undefined : bundledBaseConfig(name, release);
}
