/** One case: localize config.yaml and env, start what it needs, start the server, check it, stop it. */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isPlainObject } from "../../lib/json";
import { planAuth, type AuthPlan } from "./auth";
import type { Runnable } from "./cases";
import { runChecks } from "./checks";
import { activeProviders, expectedModels, type Env } from "./expect";
import { admittedAttributes } from "./policy";
import { localize, localValue, type Local, type Localized } from "./rewrite";
import { lastError, startServer, stopGroup, waitHealthy } from "./server";
import type { Upstream } from "./upstream";

export interface Verdict {
  readonly result: "PASS" | "FAIL" | "SKIP";
  readonly reason: string;
}

export interface Tier {
  readonly python: string;
  readonly serverPort: number;
  readonly upstream: Upstream;
  readonly local: Omit<Local, "stateDir">;
  readonly bootTimeoutMs: number;
  /** Starts (once) and empties Redis or Postgres; the reason when it cannot. */
  readonly store: (kind: "redis" | "postgres") => Promise<string | undefined>;
  readonly postgresParts: (key: string) => string;
  /** What the server wrote to a store it was given: `Redis holds N keys`, `Postgres holds N tables`. */
  readonly storeHolds: (kind: "redis" | "postgres") => Promise<string>;
}

/** What this machine lacks for a provider that is on: no S3 here, and pgvector needs its Postgres extension. */
function missingService(active: Map<string, string>): string | undefined {
  for (const [id, type] of active) {
    if (type === "remote::s3")
      return `provider ${id} (remote::s3) needs S3 storage (MinIO), which this tier does not run`;
    if (type === "remote::pgvector")
      return `provider ${id} (remote::pgvector) needs Postgres with the pgvector extension, which this tier does not run`;
  }
  return undefined;
}

function containerEnv(c: Runnable, tier: Tier, local: Local): Env {
  const pairs = c.env.map((e) => [
    e.name,
    typeof e.value === "string" ? localValue(e.value, local) : tier.postgresParts(e.value.postgres),
  ]);
  return Object.fromEntries(pairs) as Env;
}

/** The model to chat with: the first registered LLM on a remote provider, when the admitted caller may chat. */
function chatModel(l: Localized, env: Env, active: Map<string, string>): string | undefined {
  const auth = isPlainObject(l.config.server) && isPlainObject(l.config.server.auth) ? l.config.server.auth : undefined;
  if (
    auth &&
    JSON.stringify(admittedAttributes(auth, "/v1/chat/completions")) !== JSON.stringify(admittedAttributes(auth))
  )
    return undefined;
  return expectedModels(l.config, env).find((m) => m.type === "llm" && active.get(m.providerId)?.startsWith("remote::"))
    ?.id;
}

async function needs(l: Localized, tier: Tier): Promise<string | undefined> {
  for (const kind of ["redis", "postgres"] as const) {
    const missing = l.needs[kind] ? await tier.store(kind) : undefined;
    if (missing !== undefined) return missing;
  }
  return undefined;
}

function prepare(c: Runnable, tier: Tier, stateDir: string): { l: Localized; env: Env; plan?: AuthPlan } | Verdict {
  const local = { ...tier.local, stateDir };
  const l = localize(c.configYaml, local);
  if (l.leftover.length > 0)
    return {
      result: "FAIL",
      reason: `config.yaml still names ${l.leftover.join(", ")}: only loopback is reached here`,
    };
  const env = containerEnv(c, tier, local);
  const missing = missingService(activeProviders(l.config, env));
  if (missing !== undefined) return { result: "SKIP", reason: missing };
  const state = tier.upstream.state;
  const expected = expectedModels(l.config, env);
  Object.assign(state, {
    models: [...expected.map((m) => m.providerModelId), "fake-model"],
    jwks: undefined,
    introspection: undefined,
    kubeUsers: new Map(),
  });
  const auth = isPlainObject(l.config.server) && isPlainObject(l.config.server.auth) ? l.config.server.auth : undefined;
  const plan = auth && planAuth(auth, state);
  if (typeof plan === "string") return { result: "SKIP", reason: `auth not checkable: ${plan}` };
  return { l, env, ...(plan ? { plan } : {}) };
}

export async function runCase(c: Runnable, tier: Tier, stateDir: string): Promise<Verdict> {
  mkdirSync(stateDir, { recursive: true });
  const prepared = prepare(c, tier, stateDir);
  if ("result" in prepared) return prepared;
  const { l, env, plan } = prepared;
  const missing = await needs(l, tier);
  if (missing !== undefined) return { result: "SKIP", reason: missing };
  const configPath = join(stateDir, "config.yaml");
  writeFileSync(configPath, l.configYaml);
  const tls = isPlainObject(l.config.server) && l.config.server.tls_certfile !== undefined;
  const target = { port: tier.serverPort, ...(tls ? { ca: readFileSync(tier.local.tls.cert, "utf8") } : {}) };
  const started = Date.now();
  const { child, log } = startServer({ python: tier.python, configPath, port: tier.serverPort, stateDir, env });
  try {
    const down = await waitHealthy(child, target, tier.bootTimeoutMs);
    if (down !== undefined) return classify(down, log);
    const boot = `up in ${Math.round((Date.now() - started) / 1000)} s${tls ? " (TLS)" : ""}`;
    const model = chatModel(l, env, activeProviders(l.config, env));
    const out = await runChecks({
      target,
      expected: expectedModels(l.config, env),
      ...(plan ? { plan } : {}),
      ...(model ? { chatModel: model } : {}),
    });
    for (const kind of (["redis", "postgres"] as const).filter((k) => l.needs[k])) {
      const holds = await tier.storeHolds(kind);
      (/ 0 (keys|tables)$/.test(holds) ? out.failed : out.said).push(holds);
    }
    if (out.failed.length > 0) return { result: "FAIL", reason: `${boot}; ${out.failed.join("; ")} (log: ${log})` };
    return { result: "PASS", reason: [boot, ...out.said].join("; ") };
  } finally {
    await stopGroup(child);
  }
}

/** A start-up failure; a Python module the server's environment lacks is this machine's limit, not the config's. */
function classify(down: string, log: string): Verdict {
  const module = /No module named '([\w.]+)'/.exec(readFileSync(log, "utf8"))?.[1];
  if (module !== undefined)
    return {
      result: "SKIP",
      reason: `the server's Python lacks the module ${module} that a provider of this config imports`,
    };
  return { result: "FAIL", reason: `did not start (${down}): ${lastError(log)} (log: ${log})` };
}
