/**
 * Drives a running service with hostile-size syncs (hostile-requests.ts), interleaved with
 * normal ones, a few at a time as Metacontroller's workers send them (5 per controller by
 * default), and checks every answer and the process's resident memory after each one. Used by tests/build.test.ts and
 * bench/memory.ts.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, request } from "node:http";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { hostileRequest, uniqueText, SETTINGS_BYTES, type HostileKind } from "./hostile-requests";

export interface HostileRun {
  readonly sent: number;
  /** Answers that were not 200 or not what the request asks for, with why (the first few). */
  readonly wrong: readonly string[];
  readonly wrongCount: number;
  /** The highest resident set size seen after an answer, and the kernel's peak (VmHWM). */
  readonly maxRssBytes: number;
  readonly peakRssBytes: number;
  /** Set when the process died: its exit code or signal. */
  readonly died?: string;
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

function post(agent: Agent, url: string, body: string): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      `${url}/sync`,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      },
    );
    req.on("error", (error) => resolve({ status: 0, body: error.message }));
    req.end(body);
  });
}

/** Request `i`: every `largeEvery`-th one large (settings, override, CA bundle in turn), the rest normal. */
export function kindOf(i: number, largeEvery: number): HostileKind {
  if (i % largeEvery !== 0) return "normal";
  const large: readonly HostileKind[] = ["settings", "override", "caBundle"];
  return large[Math.floor(i / largeEvery) % large.length]!;
}

interface Parsed {
  readonly status?: {
    readonly phase?: string;
    readonly conditions?: readonly { type: string; status: string; reason?: string }[];
  };
  readonly children?: readonly KubeObject[];
}

const child = (answer: Parsed, kind: string, name: string): KubeObject | undefined =>
  answer.children?.find((c) => c.kind === kind && c.metadata.name.startsWith(name));

const data = (o: KubeObject | undefined, key: string): string => {
  const value: unknown = (o as { data?: Record<string, unknown> } | undefined)?.data?.[key];
  return typeof value === "string" ? value : "";
};

/** What the answer to request `i` of `kind` must hold; undefined when it does. */
function problemOf(kind: HostileKind, i: number, answer: Parsed): string | undefined {
  const generated = answer.status?.conditions?.find((c) => c.type === "ConfigGenerated");
  if (answer.status?.phase === "Failed" || generated?.status !== "True")
    return `not generated: ${JSON.stringify(answer.status?.conditions ?? answer)}`.slice(0, 300);
  const name = `${kind.toLowerCase()}-${kind === "normal" ? i % 8 : i}`;
  if (!child(answer, "Deployment", name)) return "no Deployment";
  if (kind === "settings") {
    const yaml = data(child(answer, "ConfigMap", `${name}-config-`), "config.yaml");
    if (!yaml.includes(`notes: "${uniqueText(i, SETTINGS_BYTES)}"`)) return "config.yaml lacks the provider's settings";
  }
  if (kind === "override" && generated.reason !== "UsingOverrideConfig") return `config source ${generated.reason}`;
  if (kind === "caBundle") {
    const bundle = data(child(answer, "ConfigMap", `${name}-ca-bundle`), "ca-bundle.crt");
    const certificates = bundle.split("-----BEGIN CERTIFICATE-----").length - 1;
    const hash = createHash("sha256").update(bundle).digest("hex");
    if (certificates !== 4 || !JSON.stringify(child(answer, "Deployment", name)).includes(hash))
      return `CA bundle of ${certificates} certificates, or the pods do not carry its hash`;
  }
  return undefined;
}

function rssOf(pid: number): { now: number; peak: number } {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string): number => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
    return { now: kb("VmRSS"), peak: kb("VmHWM") };
  } catch {
    return { now: 0, peak: 0 }; // gone
  }
}

export interface HostileOptions {
  readonly requests: number;
  readonly largeEvery: number;
  readonly concurrency: number;
  /** Stop early when the process died (its exit code or signal), not answering anymore. */
  readonly died: () => string | undefined;
}

/** Sends `requests` syncs to `url` (the process `pid`) and checks each answer. */
export async function runHostile(url: string, pid: number, options: HostileOptions): Promise<HostileRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const wrong: string[] = [];
  let wrongCount = 0;
  let maxRss = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < options.requests && options.died() === undefined; i = next++) {
      const kind = kindOf(i, options.largeEvery);
      const answer = await post(agent, url, JSON.stringify(hostileRequest(kind, i)));
      maxRss = Math.max(maxRss, rssOf(pid).now);
      const problem =
        answer.status === 200 ? problemOf(kind, i, JSON.parse(answer.body) as Parsed) : `HTTP ${answer.status}`;
      if (problem === undefined) continue;
      wrongCount += 1;
      if (wrong.length < 5) wrong.push(`#${i} (${kind}): ${problem}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  const died = options.died();
  return {
    sent: Math.min(next, options.requests),
    wrong,
    wrongCount,
    maxRssBytes: maxRss,
    peakRssBytes: rssOf(pid).peak,
    ...(died === undefined ? {} : { died }),
  };
}
