/**
 * `POST /sync` with the unchanged-parent memo (lib/sync/memo.ts) over real HTTP: a reused
 * answer goes out byte for byte as computed, the log line says it was reused, and at debug
 * level its body is logged redacted like any other.
 */
import request from "supertest";
import { syncRemembered, syncWith } from "../../lib/sync";
import { createSyncMemo } from "../../lib/sync/memo";
import type { SyncRequest } from "../../lib/wire/metacontroller";
import { sync } from "../../lib/sync/sync";
import { aParent, aRequest, aSecret, deps, stamped, steadyState } from "../sync-builders";
import { aTestApp, LEVEL } from "./helpers";

const VALUE = "memo-canary-4d1f";
const POSTGRES = { distribution: { name: "starter" }, storage: { sql: { type: "postgres", connectionString: { name: "db", key: "dsn" } } } };

const steadyRequest = (): Promise<SyncRequest> =>
  steadyState(aRequest(stamped(aParent(POSTGRES)), [], [stamped(aSecret("db", { dsn: `postgresql://llama:${VALUE}@db:5432/llama` }))]), (r) => sync(r, deps()));

describe("POST /sync through the memo", () => {
  it("answers an unchanged parent from the memo: same bytes, `reused: 1` in the log line, no Secret value in any line", async () => {
    const memo = createSyncMemo({ maxBytes: 2 ** 24, idleMs: 60_000, now: () => 0 });
    const t = aTestApp({ logLevel: "debug", handlers: { sync: (r) => syncRemembered(r, deps(), undefined, undefined, memo) } });
    const body = await steadyRequest();
    const first = await request(t.app).post("/sync").send(body);
    const second = await request(t.app).post("/sync").send(body);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.text).toBe(first.text);
    expect(second.text).toBe(JSON.stringify(await syncWith(body, deps(), undefined)));
    expect(second.headers["content-type"]).toMatch(/^application\/json/);
    const children = (JSON.parse(first.text) as { children: { kind: string }[] }).children;
    expect(first.text).toContain(Buffer.from(VALUE).toString("base64")); // in the derived Postgres Secret: the answer carries it, the logs must not
    const answered = t.lines().filter((l) => l.msg === "Answered hook call");
    expect(answered.map((l) => [l.level, l.reused, l.children])).toEqual([[LEVEL.info, 0, children.length], [LEVEL.info, 1, children.length]]);
    const bodies = t.lines().filter((l) => l.msg === "Hook response body");
    expect(bodies).toHaveLength(2);
    expect(bodies[1]!.redactedResponse).toEqual(bodies[0]!.redactedResponse);
    expect((await request(t.app).get("/metrics")).text).toMatch(/^llsd_hook_reused_total\{hook="sync"\} 1$/m);
    expect(t.logText()).not.toContain(VALUE);
    expect(t.logText()).not.toContain(Buffer.from(VALUE).toString("base64"));
  });
});
