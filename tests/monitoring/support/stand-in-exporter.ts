/**
 * A stand-in for an OGX 1.3 server's scrape endpoint: every metric the 1.3 source defines
 * (tests/fixtures/monitoring/ogx-1.3.0-metrics.json), in Prometheus text format, each counter and
 * histogram growing with every scrape. A metric with a `status` label has a success series and an
 * error one (10% of the total, answered 500), so the error-ratio alert has something to see; a
 * request series has a refused one too (10%, 404), which that alert must not count.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SERVER_FIXTURES } from "./server";

interface Fixture {
  readonly metrics: { readonly [name: string]: { readonly type: string; readonly labels: readonly string[] } };
}

/** A value for each label the 1.3 metrics carry; `status` and `status_code` vary per series. */
const VALUES: Readonly<Record<string, string>> = {
  api: "responses",
  method: "create_openai_response",
  model: "llama-3-8b",
  provider: "vllm",
  stream: "true",
  type: "llm",
  tool_group: "builtin::websearch",
  tool_name: "web_search",
  vector_db: "docs",
  operation: "query",
  search_mode: "vector",
  parameter: "stream",
  tool_type: "web_search",
};

const BUCKETS = ["0.1", "1", "10", "+Inf"];

/** An outcome: its `status`, its `status_code` where the metric has one, and how many per scrape. */
interface Outcome {
  readonly status: "success" | "error";
  readonly code: string;
  readonly perScrape: number;
}

const SUCCESS: Outcome = { status: "success", code: "200", perScrape: 9 };
const FAILED: Outcome = { status: "error", code: "500", perScrape: 1 };
/** A refused request: the server's `status="error"` with a 4xx, taken out of the successes. */
const REFUSED: Outcome = { status: "error", code: "404", perScrape: 1 };

function labelText(labels: readonly string[], outcome: Outcome): string {
  const pairs = labels.map((l) => {
    if (l === "status") return `status="${outcome.status}"`;
    if (l === "status_code") return `status_code="${outcome.code}"`;
    return `${l}="${VALUES[l] ?? "x"}"`;
  });
  return pairs.join(",");
}

function outcomes(labels: readonly string[]): readonly Outcome[] {
  if (labels.includes("status_code")) return [{ ...SUCCESS, perScrape: 8 }, REFUSED, FAILED];
  return labels.includes("status") ? [SUCCESS, FAILED] : [SUCCESS];
}

/** One metric's lines after `scrapes` scrapes: per scrape 10 calls, 1 of them failed (500) and, with a status code, 1 refused (404). */
function lines(name: string, type: string, labels: readonly string[], scrapes: number): string[] {
  const out = [`# TYPE ${name} ${type}`];
  for (const outcome of outcomes(labels)) {
    const n = scrapes * outcome.perScrape;
    const l = labelText(labels, outcome);
    const sep = l === "" ? "" : ",";
    if (type === "histogram") {
      BUCKETS.forEach((le, i) =>
        out.push(`${name}_bucket{${l}${sep}le="${le}"} ${Math.round((n * (i + 1)) / BUCKETS.length)}`),
      );
      out.push(`${name}_sum{${l}} ${n * 2}`, `${name}_count{${l}} ${n}`);
    } else out.push(`${name}{${l}} ${type === "gauge" ? 3 : n}`);
  }
  return out;
}

export interface StandIn {
  readonly address: string;
  close(): Promise<void>;
}

export async function startStandIn(): Promise<StandIn> {
  const fixture = JSON.parse(readFileSync(join(SERVER_FIXTURES, "ogx-1.3.0-metrics.json"), "utf8")) as Fixture;
  let scrapes = 0;
  const server: Server = createServer((req, res) => {
    if (req.url !== "/metrics") return void res.writeHead(404).end();
    scrapes += 1;
    const body = Object.entries(fixture.metrics).flatMap(([name, m]) => lines(name, m.type, m.labels, scrapes));
    res.writeHead(200, { "content-type": "text/plain; version=0.0.4" }).end(`${body.join("\n")}\n`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
