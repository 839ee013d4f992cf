/**
 * `POST /sync` with the unchanged-parent memo (lib/sync/memo.ts) over real HTTP: a reused
 * answer goes out byte for byte as computed, the log line says it was reused, and at debug
 * level its body is logged redacted like any other.
 */
import request from "supertest";
import { syncRemembered } from "../../lib/sync";
import { plainSyncWith } from "../plain-path";
import { createSyncMemo } from "../../lib/sync/memo";
import type { SyncRequest, SyncResponse } from "../../lib/wire/metacontroller";
import { sync } from "../../lib/sync/sync";
import { aParent, aRequest, aSecret, deps, stamped, steadyState } from "../sync-builders";
import { startServiceProcess } from "../reliability/process";
import { httpClient } from "../reliability/support";
import { aTestApp, LEVEL, until } from "./helpers";

const VALUE = "memo-canary-4d1f";
const POSTGRES = {
  distribution: { name: "starter" },
  storage: { sql: { type: "postgres", connectionString: { name: "db", key: "dsn" } } },
};

const steadyRequest = (): Promise<SyncRequest> =>
  steadyState(
    aRequest(
      stamped(aParent(POSTGRES)),
      [],
      [stamped(aSecret("db", { dsn: `postgresql://llama:${VALUE}@db:5432/llama` }))],
    ),
    (r) => sync(r, deps()),
  );

describe("POST /sync through the memo", () => {
  it("answers an unchanged parent from the memo: same bytes, `reused: 1` in the log line, no Secret value in any line", async () => {
    const memo = createSyncMemo({ maxBytes: 2 ** 24, idleMs: 60_000, now: () => 0 });
    const t = aTestApp({
      logLevel: "debug",
      handlers: { sync: (r) => syncRemembered(r, deps(), { memo }) },
    });
    const body = await steadyRequest();
    const first = await request(t.app).post("/sync").send(body);
    const second = await request(t.app).post("/sync").send(body);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe(JSON.stringify(await plainSyncWith(body, deps(), undefined)));
    expect(second.headers["content-type"]).toMatch(/^application\/json/);
    const children = (JSON.parse(first.text) as { children: { kind: string }[] }).children;
    expect(first.text).toContain(Buffer.from(VALUE).toString("base64")); // in the derived Postgres Secret: the answer carries it, the logs must not
    const answered = t.lines().filter((l) => l.msg === "Answered hook call");
    expect(answered.map((l) => [l.level, l.reused, l.children])).toEqual([
      [LEVEL.debug, 0, children.length],
      [LEVEL.debug, 1, children.length],
    ]);
    const bodies = t.lines().filter((l) => l.msg === "Hook response body");
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.redactedResponse).toEqual(bodies[0]!.redactedResponse);
    expect((await request(t.app).get("/metrics")).text).toMatch(/^llsd_hook_reused_total\{hook="sync"\} 1$/m);
    expect(t.logText()).not.toContain(VALUE);
    expect(t.logText()).not.toContain(Buffer.from(VALUE).toString("base64"));
  });
});

describe("node hooks/main.ts (the service as the image runs it)", () => {
  it.each([
    // steadyState's last call computed the steady request's answer; both calls after it reuse it.
    ["by default", { LOG_LEVEL: "debug" }, [1, 1]],
    ["not with LLSD_CACHE_MB=0", { LOG_LEVEL: "debug", LLSD_CACHE_MB: "0" }, [0, 0]],
  ])(
    "reuses the answer for an unchanged parent %s",
    async (_, env, reused) => {
      const service = await startServiceProcess(env);
      const client = httpClient(service.port);
      try {
        // Steady against this service (its operator version, its clock), as Metacontroller gets there.
        const first = aRequest(
          stamped(aParent(POSTGRES)),
          [],
          [stamped(aSecret("db", { dsn: "postgresql://llama:pw@db:5432/llama" }))],
        );
        let posts = 0;
        const post = (r: SyncRequest) => ((posts += 1), client.post("/sync", r));
        const body = await steadyState(first, async (r) => JSON.parse((await post(r)).text) as SyncResponse);
        const answers = [await post(body), await post(body)];
        expect(answers.map((a) => a.status)).toEqual([200, 200]);
        expect(answers[1]!.text).toBe(answers[0]!.text);
        const answered = () => service.lines().filter((l) => l.msg === "Answered hook call");
        await until(() => answered().length === posts); // the log is written asynchronously
        expect(
          answered()
            .slice(-2)
            .map((l) => l.reused ?? 0),
        ).toEqual(reused);
      } finally {
        client.close();
        await service.kill();
      }
    },
    30_000,
  );
});
