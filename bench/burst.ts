/**
 * Benchmark: 1,000 distinct parents naming one uncached image, sent at once to the real app
 * over HTTP. The image lives in a real registry (Debian docker-registry on loopback, behind the
 * tests' counting proxy); the app reads it with a real resolver. Every answer must be 200 and
 * the registry must see one manifest and one config fetch (single flight). Baseline: the same
 * 1,000 bodies sent at once to the echo app.
 */
import { Agent } from "node:http";
import { createOverloadGuard } from "../hooks/overload";
import { bundledBaseConfig } from "../lib/distributions/bundled";
import { createBaseConfigResolver } from "../lib/oci";
import { b64 } from "../tests/oci/support/configs";
import { pushImage } from "../tests/oci/support/images";
import { startProxy } from "../tests/oci/support/proxy";
import { startRegistry } from "../tests/oci/support/registry";
import { requestBody, sampleSyncRequest } from "./request";
import { postSync } from "./service";
import { startEchoApp, startHookApp } from "./servers";
import { quantile } from "./stats";

export const BURST = 1000;

export interface BurstRun {
  readonly ok: number;
  readonly statuses: { readonly [status: string]: number };
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly wallMs: number;
}

export interface BurstBench {
  readonly app: BurstRun;
  readonly baseline: BurstRun;
  /** Answers whose status says the config came from the image's labels. */
  readonly fromLabels: number;
  readonly fetches: { readonly manifest: number; readonly blob: number };
}

/** The starter's base config in the image's labels, declaring a 0.7 server. */
export async function pushStarterImage(registryUrl: string, repository: string, tag = "0.7.1"): Promise<void> {
  const config = bundledBaseConfig("starter", "0.7");
  if (config === undefined) throw new Error("no bundled starter 0.7 config");
  await pushImage({ url: registryUrl }, repository, tag, {
    labels: { "io.llamastack.config.base64": b64(config), "org.opencontainers.image.version": tag },
  });
}

/** Every body POSTed at once, one connection each; latency = send to last byte of the answer. */
async function fire(url: string, bodies: readonly string[]): Promise<BurstRun & { answers: string[] }> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const started = performance.now();
  const results = await Promise.all(
    bodies.map(async (body) => {
      const t0 = performance.now();
      const answer = await postSync(agent, url, body);
      return { status: answer.status, ms: performance.now() - t0, text: answer.body };
    }),
  );
  const wallMs = performance.now() - started;
  agent.destroy();
  const statuses: { [status: string]: number } = {};
  for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  return {
    ok: statuses["200"] ?? 0,
    statuses,
    p50Ms: quantile(ms, 0.5),
    p99Ms: quantile(ms, 0.99),
    wallMs,
    answers: results.map((r) => r.text),
  };
}

export async function benchBurst(): Promise<BurstBench> {
  const registry = await startRegistry();
  const proxy = await startProxy(registry.host);
  const resolver = createBaseConfigResolver({ insecureRegistries: [proxy.host] });
  // The overload guard's default (64 in flight, then 429 + Retry-After) would turn most of a
  // 1,000-call burst away by design; here it admits the whole burst.
  const app = await startHookApp(resolver, { overload: createOverloadGuard({ maxConcurrent: BURST }) });
  const echo = await startEchoApp();
  try {
    await pushStarterImage(registry.url, "llsd/burst");
    const text = JSON.stringify(await sampleSyncRequest());
    const bodies = Array.from({ length: BURST }, (_, i) =>
      requestBody(text, `burst-${i}`, `${proxy.host}/llsd/burst:0.7.1`),
    );
    proxy.reset();
    const { answers, ...appRun } = await fire(app.url, bodies);
    const fetches = { manifest: proxy.count("manifest"), blob: proxy.count("blob") };
    const fromLabels = answers.filter((a) => a.includes('"configSource":"oci-label"')).length;
    const { answers: _echoed, ...baseline } = await fire(echo.url, bodies);
    return { app: appRun, baseline, fromLabels, fetches };
  } finally {
    await app.close();
    await echo.close();
    await proxy.close();
    await registry.stop();
  }
}
