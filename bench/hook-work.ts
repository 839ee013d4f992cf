/**
 * The `/sync` or `/convert` work of the service alone, for counting instructions (BENCHMARKS.md,
 * "Where the time goes"): a build's own steps on the recorded bodies — `JSON.parse` and the
 * depth bound (hooks/json-body.ts), the wire shape, the hook as the service builds it (the
 * replay's settings: no registry, no running servers), the answer's bytes — with no HTTP and
 * no logger. `warm` passes, then `measured` ones:
 *
 *   valgrind --tool=callgrind node --single-threaded --import tsx bench/hook-work.ts sync dist 3 2
 *
 * The same run with `0 0` counts the start-up, to take away; another build (a copy of dist/
 * made before a change, beside a node_modules) is compared by its path.
 */
import { resolve } from "node:path";
import type * as Handlers from "../hooks/handlers";
import type * as JsonBody from "../hooks/json-body";
import type * as RequestShape from "../hooks/request-shape";
import type * as Review from "../lib/conversion/review";
import type * as Wire from "../lib/wire/metacontroller";
import { SERVICE_ENV } from "./service";
import { readTraffic } from "./traffic";

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-type-assertion -- modules of the build under test, not this tree's TypeScript */
const load = <T>(root: string, path: string): T => require(resolve(root, path)) as T;
/* eslint-enable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-type-assertion */

/** The body as the JSON parser and the depth bound hand it on. */
function parsed(root: string, body: string): unknown {
  const { jsonDepthExceeds, MAX_JSON_DEPTH } = load<typeof JsonBody>(root, "hooks/json-body.js");
  const value: unknown = JSON.parse(body);
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH)) throw new Error("a recorded body nests too deep");
  return value;
}

/** One call of /sync: the answer's bytes. */
function syncCall(root: string): (body: string) => Promise<number> {
  const { productionHandlers } = load<typeof Handlers>(root, "hooks/handlers.js");
  const { syncRequestShape } = load<typeof RequestShape>(root, "hooks/request-shape.js");
  const { SerializedAnswer } = load<typeof Wire>(root, "lib/wire/metacontroller.js");
  const silent = { warn: () => undefined, info: () => undefined, error: () => undefined };
  // eslint-disable-next-line @typescript-eslint/no-unsafe-type-assertion -- the overrides log calls only these three
  const handlers = productionHandlers(silent as never, { ...process.env, ...SERVICE_ENV });
  return async (body) => {
    const shape = syncRequestShape(parsed(root, body));
    if (!shape.ok) return 0;
    const answer = await handlers.sync(shape.request);
    return answer instanceof SerializedAnswer ? answer.body.length : JSON.stringify(answer).length;
  };
}

/** One call of /convert: the answer's length as Express sends it. */
function convertCall(root: string): (body: string) => Promise<number> {
  const { reviewConversion } = load<typeof Review>(root, "lib/conversion/review.js");
  return (body) => {
    const outcome = reviewConversion(parsed(root, body), { consume: true });
    return Promise.resolve("response" in outcome ? JSON.stringify(outcome.response).length : 0);
  };
}

/** CPU µs a call of each of `count` passes over `bodies`. */
async function passes(call: (body: string) => Promise<number>, bodies: readonly string[], count: number) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = process.cpuUsage();
    for (const body of bodies) await call(body);
    const used = process.cpuUsage(started);
    times.push((used.user + used.system) / bodies.length);
  }
  return times;
}

async function main([hook = "sync", root = "dist", warm = "3", measured = "2"]: readonly string[]): Promise<void> {
  if (hook !== "sync" && hook !== "convert") throw new Error("the hook: sync or convert");
  const call = hook === "sync" ? syncCall(root) : convertCall(root);
  const bodies = readTraffic(hook).map((record) => record.body);
  await passes(call, bodies, Number(warm));
  const times = await passes(call, bodies, Number(measured));
  if (times.length > 0)
    console.log(
      `${root}: ${bodies.length} ${hook} calls, CPU µs a call per pass: ${times.map((t) => t.toFixed(0)).join(" ")}`,
    );
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
