/**
 * `llsd migrate FILE [--release LINE]`, after conversion: the env-var patterns become providers
 * and models (lib/migrate/migrate.ts), and the CR stays on the server line it runs, its image
 * pinned when a v1alpha2 CR would start another one. `--release` moves it to another line,
 * explicitly, and says what changes; a CR the new line would refuse is refused here.
 */
import type { LlsdSpecV1alpha2 } from "../api/v1alpha2";
import { normalizedSpec } from "../api/validate";
import { own, type JsonMap } from "../json";
import { formatErrors } from "../errors";
import type { Release } from "../distributions/table";
import { lineChanges } from "../migrate/changes";
import { distributionNameOf, imageOnLine, lineRun, pinnedImage, type LineRun } from "../migrate/line";
import { migrateSpec } from "../migrate/migrate";
import type { CliIo } from "./io";
import { verdictOf } from "./verdict";

export interface MigrateOptions {
  /** The line to move to (`--release`); @default the line the CR runs. */
  readonly release?: Release;
}

/** The migrated object, reported on stderr; undefined (and why on stderr) when it cannot be written. */
export function migratedObject(
  hub: JsonMap,
  spec: LlsdSpecV1alpha2,
  options: MigrateOptions,
  io: CliIo,
): object | undefined {
  const name = nameOf(hub);
  const migrated = migrateSpec(spec);
  for (const line of migrated.report.changed) io.stderr(`changed: ${name}: ${line}\n`);
  for (const line of migrated.report.kept) io.stderr(`kept: ${name}: ${line}\n`);
  const written = normalizedSpec(spec);
  if (written === undefined) return { ...hub, spec: migrated.spec };
  const run = lineRun(hub, written);
  const to = options.release;
  if (to === undefined || to === run.release) {
    const pinned = pinnedImage(written, run);
    io.stderr(`note: ${name}: ${stayNote(run, pinned)}\n`);
    return { ...hub, spec: pinned ? { ...migrated.spec, distribution: { image: pinned } } : migrated.spec };
  }
  return moved({ hub, spec: migrated.spec, run, to }, io);
}

const nameOf = (hub: JsonMap): string => {
  const name = own(hub.metadata, "name");
  return typeof name === "string" ? name : "(unnamed)";
};

function stayNote(run: LineRun, pinned: string | undefined): string {
  const image = run.image ?? "an image the hooks do not know";
  const stays = `stays on server line ${run.release}: it runs ${image}, ${run.why}`;
  if (pinned === undefined) return `${stays}. To move to another line: llsd migrate --release LINE (says what changes)`;
  return `${stays}; pinned as spec.distribution.image, because a v1alpha2 CR that names its distribution starts the current default. To move to another line: llsd migrate --release LINE (says what changes)`;
}

interface Move {
  readonly hub: JsonMap;
  readonly spec: LlsdSpecV1alpha2;
  readonly run: LineRun;
  readonly to: Release;
}

/** The CR moved to line `to`: the line's image pinned, every change said, refused when that line would refuse it. */
function moved({ hub, spec, run, to }: Move, io: CliIo): object | undefined {
  const name = nameOf(hub);
  const canonical = normalizedSpec(spec);
  const distribution = canonical && distributionNameOf(canonical);
  const image = distribution && imageOnLine(distribution, to);
  if (canonical === undefined || !image) {
    io.stderr(
      `error: ${name}: spec.distribution: no pinned image of ${distribution ?? "this distribution"} is known for server line ${to}; set spec.distribution.image to an image of that line and run migrate without --release\n`,
    );
    return undefined;
  }
  io.stderr(`moved: ${name}: server line ${run.release} (${run.image ?? "?"}) → ${to} (${image})\n`);
  for (const change of lineChanges(canonical, run.release, to)) io.stderr(`moved: ${name}: ${change}\n`);
  const object = { ...hub, spec: { ...spec, distribution: { image } } };
  const verdict = verdictOf(
    { where: "", apiVersion: String(hub.apiVersion), name, object, problems: [] },
    { release: to },
  );
  if (verdict.errors.length === 0) return object;
  io.stderr(
    `error: ${name}: ${to} refuses ${verdict.errors.length} field(s); change them and run migrate again:\n${formatErrors(verdict.errors)}\n`,
  );
  return undefined;
}
