/**
 * What the status shows whatever the outcome of a sync: the warnings and notes, and what the
 * running server contributes (its answer, the distribution the spec names).
 */
import type { ValidationResult } from "../api/validate";
import type { LiveReport } from "../live/types";
import { secretValuesOf } from "../secret-scrub";
import { CUSTOM_DISTRIBUTION, type LiveInput } from "../status/live";
import type { StatusInput } from "../status/status";
import type { Extra, SyncContext, SyncDeps } from "./answer";
import type { BaseOutcome } from "./base-source";
import { distributionOf } from "./parent";

/** Image-override problems that concern this parent: those about its distribution name, and file-wide ones. */
function overrideNotes(deps: SyncDeps, name: string | undefined): string[] {
  if (name === undefined) return [];
  return (deps.imageOverrideProblems ?? []).filter(
    (p) => !p.startsWith('image override "') || p.startsWith(`image override "${name}"`),
  );
}

/** The distribution the status names: the spec's name, `custom` for an image, none for an unreadable spec. */
function activeDistribution(written: { name?: string; image?: string }): string | undefined {
  if (written.name !== undefined) return written.name;
  return written.image !== undefined ? CUSTOM_DISTRIBUTION : undefined;
}

function liveInput(ctx: SyncContext, live: LiveReport | undefined, written: { name?: string }): StatusInput["live"] {
  const { deps, request } = ctx;
  // Assigned in order rather than a literal of spreads: V8 builds those slowly, on every sync.
  const input: { -readonly [K in keyof LiveInput]: LiveInput[K] } = {
    availableDistributions: Object.fromEntries(deps.distributions.map((e) => [e.name, e.image])),
    secretValues: () => secretValuesOf(request.related),
  };
  if (deps.operatorVersion !== undefined) input.operatorVersion = deps.operatorVersion;
  if (live) input.report = live;
  const active = activeDistribution(written);
  if (active !== undefined) input.activeDistribution = active;
  return input;
}

/** The status's extras before the spec is known to be valid (port 0: nothing is served yet). */
export function shownExtra(
  ctx: SyncContext,
  checked: ValidationResult,
  found: BaseOutcome,
  live: LiveReport | undefined,
): Extra {
  const written = distributionOf(ctx.request);
  const notes = [
    ...checked.warnings.map((w) => `${w.path}: ${w.message}`),
    ...found.notes,
    ...overrideNotes(ctx.deps, written.name),
  ];
  return { port: 0, notes, live: liveInput(ctx, live, written) };
}
