/**
 * The server a sync targets: its image (lib/sync/target.ts), the line that image runs
 * (lib/distributions/detect.ts, with a note whenever the line is not the image's own word),
 * and what the container must be told to serve plain HTTP on that line.
 */
import type { CanonicalSpec } from "../api/canonical";
import type { ConfigSource } from "../config/render";
import { refusesPlainHttp } from "../distributions/releases";
import { chooseLine, knownBelow } from "../distributions/detect";
import type { DistributionTable, Release } from "../distributions/table";
import type { SyncRequest } from "../wire/metacontroller";
import type { Observed } from "../status/observed";
import { stateMoveNote } from "./state-move";
import { targetOfRequest } from "./target";

export interface ServerInput {
  readonly request: SyncRequest;
  readonly spec: CanonicalSpec;
  readonly table: DistributionTable;
  readonly source: ConfigSource;
  /** The server version the image's labels declare, when they were read. */
  readonly labelVersion?: string;
  /** The observed children (lib/sync/observed.ts): a running server keeps its image. */
  readonly observed?: Observed;
}

export interface ServerChoice {
  readonly image?: string;
  readonly release: Release;
  readonly notes: readonly string[];
  /** Arguments for the image entrypoint when the user gives none (`--insecure`). */
  readonly args: readonly string[];
}

/** `ogx stack run` took `--insecure` from 1.2 on; older 1.x servers refuse the unknown flag. */
const INSECURE_FLAG_SINCE = "1.2.0";

/**
 * A config of the user's (overrideConfig) or the image's own may not set `server.insecure`, and
 * 1.2.0's entrypoint does not pass `--insecure` (1.2.1's and later do; twice is harmless):
 * without TLS the server then stops with "TLS required". Generated configs set
 * `server.insecure` themselves.
 */
function insecureArgs(input: ServerInput, release: Release, image: string | undefined): string[] {
  const { spec, source, labelVersion } = input;
  if (!refusesPlainHttp(release) || spec.networking.tls.enabled || source === "generated") return [];
  if (knownBelow({ image: image || undefined, labelVersion: labelVersion || undefined }, INSECURE_FLAG_SINCE))
    return [];
  return ["--insecure"];
}

export function serverChoice(input: ServerInput): ServerChoice {
  const target = targetOfRequest(input.request, input.spec, input.table, input.observed);
  // Absent evidence is an undefined field, not a conditional spread (this runs on every sync).
  const line = chooseLine({
    image: target.image || undefined,
    labelVersion: input.labelVersion || undefined,
    tableRelease: target.tableRelease || undefined,
  });
  const release = line.release;
  const moved = stateMoveNote(input.request, input.observed, input.spec, release);
  const notes = [...target.notes, ...(line.note ? [`spec.distribution: ${line.note}`] : []), ...(moved ? [moved] : [])];
  const args = insecureArgs(input, release, target.image);
  return target.image ? { image: target.image, release, notes, args } : { release, notes, args };
}
