/**
 * Fuzzing every hook endpoint of the real service (hooks/main.ts in a child process, image
 * labels off, so on a second core) through HTTP: per endpoint, FUZZ_RUNS (default 10 000)
 * requests built by fast-check — seeds around schema-valid objects, each mutated
 * structurally (keys deleted, values replaced with awkward JSON, prototype keys, deep nesting,
 * huge strings) or byte-wise (truncated, flipped, inserted), under varied content types. Each
 * answer must come (no hang), must not be a 5xx, must be JSON, and must carry an `error`
 * message when it is not a 200; no call may log at error level (a handler bug); the service
 * answers /healthz afterwards.
 *
 * One seed per run: FUZZ_SEED=<n> replays a failure (the seed is in the test title).
 * With image labels on — a real registry, hostile labels, redirects, hostile Secret and
 * ConfigMap values — /sync is fuzzed by fuzz-io.test.ts.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import {
  aConversionReview,
  aCustomizeRequest,
  aMutation,
  anAdmissionReview,
  aSyncRequest,
  mutate,
  type Mutation,
} from "./arbitraries";
import { startServiceProcess, type ServiceProcess } from "./process";
import { httpClient, inParallel, type Answer, type Client } from "./support";

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
/** Distinct seeds per endpoint; each is mutated RUNS / SEEDS times. */
const SEEDS = Math.min(RUNS, 600);

const CONTENT_TYPES: readonly (string | undefined)[] = [
  ...Array<string>(12).fill("application/json"),
  "application/json; charset=utf-8",
  "APPLICATION/JSON",
  "text/plain",
  undefined,
  "application/json; charset=latin1",
  "application/merge-patch+json",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
];

interface Case {
  readonly body: string;
  readonly contentType: string | undefined;
  readonly gzip: boolean;
}

function casesFor(seeds: fc.Arbitrary<Record<string, unknown>>, seed: number): Case[] {
  const pool = fc.sample(seeds, { numRuns: SEEDS, seed });
  const shapes = fc.sample(
    fc.tuple(fc.nat(SEEDS - 1), aMutation, fc.nat(CONTENT_TYPES.length - 1), fc.integer({ min: 0, max: 199 })),
    { numRuns: RUNS, seed: seed + 1 },
  );
  return shapes.map(([pick, mutation, type, encoding]: [number, Mutation, number, number]) => ({
    body: mutate(pool[pick], mutation),
    contentType: CONTENT_TYPES[type],
    // Now and then a body that claims an encoding it does not have.
    gzip: encoding === 0,
  }));
}

interface Failure {
  readonly why: string;
  readonly status: number;
  readonly answer: string;
  readonly body: string;
}

function judge(path: string, answer: Answer): string | undefined {
  if (answer.status >= 500) return "5xx";
  if (!String(answer.headers["content-type"] ?? "").startsWith("application/json")) return "not JSON";
  let parsed: unknown;
  try {
    parsed = JSON.parse(answer.text);
  } catch {
    return "body is not JSON";
  }
  if (answer.status !== 200) {
    const error = (parsed as { error?: unknown }).error;
    return typeof error === "string" && error.length > 0 ? undefined : "no error message";
  }
  const p = parsed as Record<string, unknown>;
  switch (path) {
    case "/sync":
      return Array.isArray(p.children) && typeof p.status === "object" ? undefined : "200 without children and status";
    case "/customize":
      return Array.isArray(p.relatedResources) ? undefined : "200 without relatedResources";
    case "/validate":
      return typeof (p.response as { allowed?: unknown } | undefined)?.allowed === "boolean"
        ? undefined
        : "200 without response.allowed";
    case "/convert": {
      const result = (p.response as { result?: { status?: unknown; message?: unknown } } | undefined)?.result;
      if (result?.status !== "Success" && result?.status !== "Failure") return "200 without response.result";
      const message = result.message;
      return typeof message === "string" && message.startsWith("internal error")
        ? "conversion bug (internal error)"
        : undefined;
    }
  }
  return undefined;
}

let service: ServiceProcess;
beforeAll(async () => {
  // Error level: the only lines the test reads (a handler bug), and less work per call.
  service = await startServiceProcess({ LOG_LEVEL: "error" });
}, 30_000);
afterAll(async () => {
  await service?.kill();
});

const ENDPOINTS: [string, fc.Arbitrary<Record<string, unknown>>][] = [
  ["/sync", aSyncRequest],
  ["/customize", aCustomizeRequest],
  ["/validate", anAdmissionReview],
  ["/convert", aConversionReview],
];

describe(`fuzzing the hook endpoints over HTTP (seed ${SEED}, ${RUNS} requests each)`, () => {
  it.each(ENDPOINTS)(
    "POST %s: no 5xx, no hang, JSON errors with a message, no error logged",
    async (path, seeds) => {
      const cases = casesFor(seeds, SEED + path.length);
      // A client per endpoint, created after the cases: a keep-alive connection left idle while
      // they are generated could be closed by the server just as it is reused.
      const client: Client = httpClient(service.port, { timeoutMs: 10_000 });
      const failures: Failure[] = [];
      const statuses = new Map<number, number>();
      const logged = service.lines().length;
      await inParallel(cases, 8, async (c) => {
        const headers: Record<string, string> = {
          ...(c.contentType === undefined ? {} : { "content-type": c.contentType }),
          ...(c.gzip ? { "content-encoding": "gzip" } : {}),
        };
        let answer: Answer;
        try {
          answer = await client.send("POST", path, c.body, headers);
        } catch (err) {
          // No answer at all (hang, connection reset): recorded with the request that caused it.
          if (failures.length < 5)
            failures.push({
              why: `no answer: ${(err as Error).message}`,
              status: 0,
              answer: "",
              body: c.body.slice(0, 4000),
            });
          return;
        }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const why = judge(path, answer);
        if (why === undefined) return;
        if (failures.length < 5)
          failures.push({ why, status: answer.status, answer: answer.text.slice(0, 300), body: c.body.slice(0, 4000) });
        // FUZZ_DUMP=<dir>: every failing body, whole, to replay.
        if (process.env.FUZZ_DUMP)
          writeFileSync(join(process.env.FUZZ_DUMP, `${path.slice(1)}-${failures.length}-${Date.now()}.json`), c.body);
      });
      // Error-level lines carry the handler's stack: shown beside the request that caused them.
      const errors = service
        .lines()
        .slice(logged)
        .filter((line) => line.level >= 50);
      expect({ failures, errors: errors.slice(0, 3) }).toEqual({ failures: [], errors: [] });
      expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(RUNS);
      // The fuzz reached the handlers, not only the parser: some answers are 200.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(RUNS / 20);

      const health = await client.send("GET", "/healthz");
      expect({ status: health.status, body: health.text }).toEqual({ status: 200, body: '{"status":"ok"}' });
      client.close();
    },
    // A hang is each request's own 10 s limit (the client above); this bound only stops a run
    // gone wrong. 10 000 /sync calls took over 120 s on a 2-core machine at load 15.
    900_000,
  );
});
