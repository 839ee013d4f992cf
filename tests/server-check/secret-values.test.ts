/**
 * Secret values the server would misread: its `${env.…}` substitution converts the whole
 * substituted text (digits → number, true/false → bool, "" → nothing, `~` → home), and a
 * string key then refuses the value. The sync hook reads the Secrets and says so — by Secret,
 * key and field path, never the value — before anything reaches the server. Each case is
 * grounded in the server model: the config with that value fails tests/server-check/check.ts,
 * and with the accepted values it starts.
 */
import { RELEASES, type Release } from "../../lib/distributions/table";
import type { Condition } from "../../lib/status/conditions";
import { sync } from "../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps } from "../sync-builders";
import { checkServerConfig } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const vllmWithKey = {
  distribution: { name: "starter" },
  providers: {
    inference: { provider: "vllm", endpoint: "http://vllm:8000/v1", apiKey: { name: "creds", key: "token" } },
  },
};
const postgres = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000/v1" } },
  storage: { sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } },
};
const pgvectorPort = {
  distribution: { name: "starter" },
  providers: {
    vectorIo: {
      provider: "pgvector",
      id: "pgv",
      endpoint: "http://pg:5432/vectors",
      secretRefs: { port: { name: "pgv", key: "port" } },
    },
  },
};

function syncOn(
  release: Release,
  spec: object,
  secrets: KubeObject[],
): { answer: SyncResponse; serverProblems: (override?: Record<string, string>) => string[] } {
  const request = aRequest(aParent(spec), [], secrets);
  const answer = sync(request, { ...deps(), distributions: tableFor(release) });
  return {
    answer,
    serverProblems: (override = {}) => {
      const check = serverCheckOf(answer, request.related, release)!;
      return checkServerConfig(check.configYaml, { ...check.env, ...override }, check.tag);
    },
  };
}

/** The condition of `type` (undefined at run time when absent: the expectations then fail). */
const condition = (a: SyncResponse, type: string): Condition =>
  (a.status.conditions as Condition[]).find((c) => c.type === type)!;

describe.each(RELEASES)("Secret values on the %s line", (release) => {
  it.each([
    ["12345678", "is all digits", true],
    ["  42 ", "is all digits", false],
    ["true", "is true or false", false],
    ["FALSE", "is true or false", false],
    ["1e5", "reads as a number", false],
    ["", "is empty", false],
    ["~token-9f8e7d", 'starts with "~"', true],
  ])(
    "an API key %j: SecretsResolved False SecretValueMisread, naming the Secret and key, never the value",
    (value, why, distinctive) => {
      const { answer } = syncOn(release, vllmWithKey, [aSecret("creds", { token: value })]);
      expect(answer.status.phase).toBe("Failed");
      const c = condition(answer, "SecretsResolved");
      expect(c).toEqual(expect.objectContaining({ status: "False", reason: "SecretValueMisread" }));
      expect(c.message).toContain(`spec.providers.inference.apiKey: the value of Secret creds key "token" ${why}`);
      // Short words such as "true" occur in any status; a distinctive value must not.
      if (distinctive) expect(JSON.stringify(answer)).not.toContain(value);
      expect(answer.children.filter((ch) => ch.kind === "Deployment")).toEqual([]);
    },
  );

  it("the same values are what the server model refuses, and a text value is what it accepts", () => {
    const ok = syncOn(release, vllmWithKey, [aSecret("creds", { token: "sk-12345678" })]);
    expect(ok.answer.status.phase).not.toBe("Failed");
    expect(ok.serverProblems()).toEqual([]);
    const env = "LLSD_VLLM_API_KEY";
    expect(ok.serverProblems({ [env]: "12345678" })).toEqual(
      expect.arrayContaining([expect.stringMatching(/api_token: must be string/)]),
    );
    expect(ok.serverProblems({ [env]: "true" })).toEqual(
      expect.arrayContaining([expect.stringMatching(/api_token: must be string/)]),
    );
    expect(ok.serverProblems({ [env]: "" })).toEqual([expect.stringMatching(/LLSD_VLLM_API_KEY is not set/)]);
  });

  it.each([
    [
      "password",
      "postgresql://llama:12345678@pg.db.svc:5432/llamastack",
      /the password in the connection string of Secret pg key "dsn" is all digits.*storage backend sql_postgres password takes text/,
    ],
    [
      "user",
      "postgresql://1000:secret@pg.db.svc:5432/llamastack",
      /the user in the connection string of Secret pg key "dsn" is all digits/,
    ],
    [
      "database",
      "postgresql://llama:secret@pg.db.svc:5432/2024",
      /the db in the connection string of Secret pg key "dsn" is all digits/,
    ],
  ])(
    "a Postgres DSN whose %s is all digits is flagged (the port is a number, as it should be)",
    (_part, dsn, message) => {
      const { answer } = syncOn(release, postgres, [aSecret("pg", { dsn })]);
      expect(condition(answer, "SecretsResolved")).toEqual(
        expect.objectContaining({
          status: "False",
          reason: "SecretValueMisread",
          message: expect.stringMatching(message),
        }),
      );
      expect(condition(answer, "SecretsResolved").message).not.toMatch(/12345678|1000:/);
    },
  );

  it("a Postgres DSN with text parts syncs, and the server starts with its port converted to a number", () => {
    const run = syncOn(release, postgres, [
      aSecret("pg", { dsn: "postgresql://llama:s3cret@pg.db.svc:5432/llamastack" }),
    ]);
    expect(run.answer.status.phase).not.toBe("Failed");
    expect(run.serverProblems()).toEqual([]);
  });

  it("a number where the key takes one (pgvector port) is not flagged, and the server starts", () => {
    const run = syncOn(release, pgvectorPort, [aSecret("pgv", { port: "6543" })]);
    expect(condition(run.answer, "SecretsResolved")).toEqual(expect.objectContaining({ status: "True" }));
    expect(run.serverProblems()).toEqual([]);
  });
});
