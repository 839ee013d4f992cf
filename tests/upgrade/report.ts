/**
 * The declared upgrade impact, tests/upgrade/releases/<version>/impact.md: a summary by reason
 * (what the CHANGELOG's lines are written from), then every parent whose pods are replaced, whose
 * status turns Stalled or Failed (and why), and whose other children change, with the children
 * and fields. The same impact gives the same text, so the test compares the files.
 */
import { DEPLOYMENT_SPEC_HASH_ANNOTATION } from "../../lib/names";
import type { ChildChange, ParentImpact } from "./impact";
import { showPhase, type StatusChange } from "./status";

/** Deployment fields a "pods replaced" reason already names, or that follow any change of its spec. */
const explained = (path: string): boolean =>
  path === "spec.template" ||
  path.startsWith("spec.template.") ||
  path === `metadata.annotations["${DEPLOYMENT_SPEC_HASH_ANNOTATION}"]`;

/** Fields named per child before the rest is counted: enough to say what changed, short enough to read. */
const SHOWN_PATHS = 6;

export interface Report {
  readonly from: string;
  readonly to: string;
  readonly impacts: readonly ParentImpact[];
}

function describe(change: ChildChange): string {
  if (change.change !== "changed") return `${change.child} ${change.change}`;
  const shown = change.paths.slice(0, SHOWN_PATHS).map((p) => `\`${p}\``);
  const more = change.paths.length - shown.length;
  return `${change.child}: ${shown.join(", ")}${more > 0 ? ` and ${more} more` : ""}`;
}

function parentLine(impact: ParentImpact): string {
  const why = impact.restarts.length > 0 ? `**${impact.restarts.join("; ")}** — ` : "";
  return `- \`${impact.id}\`: ${why}${impact.changes.map(describe).join("; ")}`;
}

/** `sample a.yaml` stays itself; `traffic ns/vllm-14` counts as the variant `vllm`. */
function source(id: string): string {
  return id.startsWith("traffic ") ? `traffic ${id.replace(/^traffic [^/]*\//, "").replace(/-\d+$/, "")}` : id;
}

function summaryLine(reason: string, ids: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(source(id), (counts.get(source(id)) ?? 0) + 1);
  const who = [...counts].map(([s, n]) => (n > 1 ? `${s} (${n})` : s)).join(", ");
  return `- ${reason}: ${ids.length} parent${ids.length === 1 ? "" : "s"} — ${who}`;
}

function statusLine(id: string, change: StatusChange): string {
  const before = change.before === undefined ? "(no status recorded)" : showPhase(change.before);
  return `- \`${id}\`: ${before} → **${showPhase(change.after)}**, children kept`;
}

/** Each reason pods are replaced for, each status parents turn to, and each kind of in-place change (`Kind: field`), with the parents it concerns. */
function summary(impacts: readonly ParentImpact[]): string[] {
  const byReason = new Map<string, string[]>();
  const add = (reason: string, id: string): void => {
    const ids = byReason.get(reason) ?? [];
    if (!ids.includes(id)) byReason.set(reason, [...ids, id]);
  };
  for (const impact of impacts) {
    for (const reason of impact.restarts) add(`pods replaced: ${reason}`, impact.id);
    if (impact.status !== undefined) add(`status turns ${showPhase(impact.status.after)}`, impact.id);
    for (const change of impact.changes) {
      const kind = change.child.split(" ")[0] ?? change.child;
      if (change.change !== "changed") add(`${kind} ${change.change}`, impact.id);
      for (const path of change.paths.filter((p) => !(kind === "Deployment" && explained(p))))
        add(`${kind} \`${path}\``, impact.id);
    }
  }
  return [...byReason].map(([reason, ids]) => summaryLine(reason, ids));
}

function section(title: string, lines: readonly string[]): string[] {
  return [`## ${title} (${lines.length})`, "", ...(lines.length > 0 ? lines : ["None."]), ""];
}

export function renderReport(report: Report): string {
  const changed = report.impacts.filter((i) => i.changes.length > 0);
  const restarting = changed.filter((i) => i.restarts.length > 0);
  const inPlace = changed.filter((i) => i.restarts.length === 0);
  const stalled = report.impacts.flatMap((i) => (i.status === undefined ? [] : [statusLine(i.id, i.status)]));
  const noted = report.impacts.filter((i) => i.changes.length > 0 || i.status !== undefined);
  return [
    `# Upgrading from ${report.from} to ${report.to}: what changes`,
    "",
    `The desired children of ${report.impacts.length} parents (every sample, and the last recorded request of`,
    `every parent in bench/traffic/sync.jsonl.gz), computed by ${report.from} (tests/upgrade/releases/${report.from}/)`,
    `and by the current code. Written by \`npm run upgrade-impact\`; tests/upgrade/impact.test.ts fails while`,
    "this file and the code disagree. docs/releasing.md says how to read it.",
    "",
    ...section("Summary", summary(noted)),
    ...section("Pods replaced", restarting.map(parentLine)),
    ...section("Status turns Stalled or Failed", stalled),
    ...section("Children changed, pods kept", inPlace.map(parentLine)),
    `Unchanged: ${report.impacts.length - noted.length} of ${report.impacts.length} parents.`,
    "",
  ].join("\n");
}
