/**
 * A real Prometheus (Debian 2.42) on 127.0.0.1 for one test file: a free port, storage in a temp
 * dir, the rules file given, and one scrape job built the way prometheus-operator builds it from
 * the component's ServiceMonitor endpoint (its path and honorLabels, the target labels
 * `namespace`, `service`, `pod`, `endpoint`). Short scrape and evaluation intervals; stopped
 * with SIGKILL (nothing to keep).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { freePort } from "../../reliability/process";
import { INSTALL_HINT, requirePrometheus } from "./promtool";

export interface ScrapeTarget {
  /** host:port of the hooks' plain-HTTP listener. */
  readonly address: string;
  /** The ServiceMonitor endpoint's `path` and `honorLabels`. */
  readonly path: string;
  readonly honorLabels: boolean;
  /** The labels prometheus-operator gives the target: the hooks pod's namespace, Service, pod and port name. */
  readonly labels: Readonly<Record<string, string>>;
}

export interface Sample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/** The named labels of each sample, sorted: the series a query returned, in a stable order. */
export const labelsOf = (samples: readonly Sample[], ...names: string[]): { [name: string]: string | undefined }[] =>
  samples
    .map((s) => Object.fromEntries(names.map((n) => [n, s.metric[n]])))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

export interface PrometheusServer {
  readonly url: string;
  /** An instant query through the HTTP API; rejects on an error answer. */
  query(expr: string): Promise<Sample[]>;
  stop(): Promise<void>;
}

function config(target: ScrapeTarget, rulesFile: string): string {
  return stringify({
    global: { scrape_interval: "1s", scrape_timeout: "1s", evaluation_interval: "1s" },
    rule_files: [rulesFile],
    scrape_configs: [
      {
        job_name: "llsd-hooks",
        honor_labels: target.honorLabels,
        metrics_path: target.path,
        static_configs: [{ targets: [target.address], labels: target.labels }],
      },
    ],
  });
}

export async function startPrometheus(target: ScrapeTarget, rulesFile: string): Promise<PrometheusServer> {
  requirePrometheus();
  const dir = mkdtempSync(join(tmpdir(), "llsd-prometheus-"));
  writeFileSync(join(dir, "prometheus.yml"), config(target, rulesFile));
  const port = await freePort();
  const child = spawn(
    "prometheus",
    [
      `--config.file=${join(dir, "prometheus.yml")}`,
      `--storage.tsdb.path=${join(dir, "data")}`,
      `--web.listen-address=127.0.0.1:${port}`,
      "--log.level=warn",
    ],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let log = "";
  child.stderr.on("data", (chunk: Buffer) => void (log = (log + chunk.toString("utf8")).slice(-20_000)));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.once("error", (err) => void (log += `${INSTALL_HINT} (${err.message})`));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const ready = (): Promise<boolean> =>
    fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
  try {
    await poll(() => {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error("it exited");
      return ready();
    }, 20_000);
  } catch (err) {
    await stop();
    throw new Error(`prometheus did not become ready (${String(err)}):\n${log}`, { cause: err });
  }
  return { url, query: (expr) => query(url, expr), stop };
}

async function query(url: string, expr: string): Promise<Sample[]> {
  const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: expr }).toString()}`);
  const body = (await res.json()) as { status: string; error?: string; data?: { result: Sample[] } };
  if (body.status !== "success" || body.data === undefined) throw new Error(`${expr}: ${body.error ?? res.status}`);
  return body.data.result;
}

/** Polls `done` every 200 ms until it holds; rejects after `timeoutMs` (a bound, not a measurement). */
export async function poll(done: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
