/**
 * A storage backend on the loopback address is the server's own pod, where no database
 * listens: postgres-demo without spec.storage. The status says so, with the fix, whether the
 * config is the image's own, generated or an override; nothing is said once the store is set.
 */
import { sync } from "../../../lib/sync/sync";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { aConfigMap, aParent, aRequest, aSecret, deps } from "../../sync-builders";

const demo = { distribution: { name: "postgres-demo" } };
const vllm = { inference: { provider: "vllm", endpoint: "http://vllm:8000" } };
const pgSecret = aSecret("pg", { dsn: "postgresql://llama:pw@db.data.svc:5432/llama" });
const loopbackNotes = (spec: object, related: KubeObject[] = []) =>
  ((sync(aRequest(aParent(spec), [], related), deps()).status.notes ?? []) as string[]).filter((n) =>
    n.includes("inside its own pod"),
  );

describe("storage on the loopback address", () => {
  it.each<[string, object, KubeObject[]]>([
    ["postgres-demo, the image's own config", demo, []],
    ["postgres-demo, generated with a provider", { ...demo, providers: vllm, resources: { models: ["m"] } }, []],
  ])("%s: the Postgres backends at localhost are named with the fix", (_title, spec, related) => {
    expect(loopbackNotes(spec, related)).toEqual([
      "storage.backends.kv_default: the server looks for its kv_postgres store at localhost, inside its own pod, where nothing listens, and cannot start without it; set spec.storage.kv (sqlite on the volume, postgres with a connectionString Secret, or redis with its endpoint), or POSTGRES_HOST in spec.workload.overrides.env",
      "storage.backends.sql_default: the server looks for its sql_postgres store at localhost, inside its own pod, where nothing listens, and cannot start without it; set spec.storage.sql (sqlite on the volume, or postgres with a connectionString Secret), or POSTGRES_HOST in spec.workload.overrides.env",
    ]);
  });

  it("an override config with a Redis store at 127.0.0.1: named, with the ConfigMap", () => {
    const config =
      "version: 2\napis: [inference]\nproviders:\n  inference: []\nstorage:\n  backends:\n    kv_default:\n      type: kv_redis\n      host: 127.0.0.1\n      port: 6379\n";
    const notes = loopbackNotes({ ...demo, overrideConfig: { configMapName: "cfg" } }, [
      aConfigMap("cfg", { "config.yaml": config }),
    ]);
    expect(notes).toEqual([
      expect.stringMatching(
        /^ConfigMap cfg: storage\.backends\.kv_default: .*kv_redis store at 127\.0\.0\.1.*set spec\.storage\.kv/,
      ),
    ]);
  });

  it.each<[string, object, KubeObject[]]>([
    ["the starter (sqlite on the volume)", { distribution: { name: "starter" } }, []],
    [
      "postgres-demo with spec.storage (sqlite KV, Postgres SQL)",
      {
        ...demo,
        providers: vllm,
        resources: { models: ["m"] },
        storage: { kv: { type: "sqlite" }, sql: { type: "postgres", connectionString: { name: "pg", key: "dsn" } } },
      },
      [pgSecret],
    ],
    [
      "postgres-demo with POSTGRES_HOST set",
      { ...demo, workload: { overrides: { env: [{ name: "POSTGRES_HOST", value: "db.data.svc" }] } } },
      [],
    ],
  ])("%s: nothing to say", (_title, spec, related) => {
    expect(loopbackNotes(spec, related)).toEqual([]);
  });
});
