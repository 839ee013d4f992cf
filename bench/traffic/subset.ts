/**
 * Builds bench/traffic/ from the full recording: `npx tsx bench/traffic/subset.ts <dir of the
 * recording>`. /customize, /convert and /validate are kept whole; /sync keeps every request of
 * a quarter of the parents (every fourth parent of each variant, in order of first appearance) and
 * of the first parent of every stratum that would otherwise be missing (traffic.ts `syncStratum`),
 * so each kept parent's resyncs stay in sequence (what the sync memo sees) and every kind of
 * request stays. Records are written unchanged, in recorded order.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { ENDPOINTS, kindOf, readTraffic, syncKind, syncStratum, TRAFFIC_DIR, type TrafficRecord } from "../traffic";

const EVERY = 4;

/** The uids of the parents the subset keeps. */
function keptParents(records: readonly TrafficRecord[]): Set<string> {
  const kinds = records.map(syncKind);
  const byVariant = new Map<string, string[]>();
  for (const { uid, variant } of kinds) {
    const uids = byVariant.get(variant) ?? [];
    if (!uids.includes(uid)) byVariant.set(variant, [...uids, uid]);
  }
  const kept = new Set([...byVariant.values()].flatMap((uids) => uids.filter((_, i) => i % EVERY === 0)));
  const covered = new Set(records.filter((_, i) => kept.has(kinds[i]?.uid ?? "")).map(syncStratum));
  records.forEach((record, i) => {
    const stratum = syncStratum(record);
    if (covered.has(stratum)) return;
    kept.add(kinds[i]?.uid ?? "");
    for (const [j, other] of records.entries()) if (kinds[j]?.uid === kinds[i]?.uid) covered.add(syncStratum(other));
  });
  return kept;
}

function main(): void {
  const source = process.argv[2];
  if (source === undefined) throw new Error("usage: tsx bench/traffic/subset.ts <dir of the full recording>");
  for (const endpoint of ENDPOINTS) {
    const records = readTraffic(endpoint, source);
    const kept = endpoint === "sync" ? keptParents(records) : undefined;
    const subset = kept ? records.filter((r) => kept.has(syncKind(r).uid)) : records;
    const gz = gzipSync(Buffer.from(subset.map((r) => `${r.line}\n`).join(""), "utf8"), { level: 9 });
    writeFileSync(join(TRAFFIC_DIR, `${endpoint}.jsonl.gz`), gz);
    const kinds = new Set(records.map((r) => kindOf(endpoint, r))).size;
    const keptKinds = new Set(subset.map((r) => kindOf(endpoint, r))).size;
    console.log(`${endpoint}: ${subset.length} of ${records.length}, kinds ${keptKinds}/${kinds}, ${gz.length} bytes`);
  }
}

main();
