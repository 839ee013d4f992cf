/**
 * Drives a running service with hostile-size syncs (hostile-requests.ts), interleaved with
 * normal ones, a few at a time as Metacontroller's workers send them (5 per controller by
 * default), and checks every answer and the process's resident memory after each one. Used by tests/build.test.ts and
 * bench/memory.ts.
 */
import { createHash } from "node:crypto";
import { Agent } from "node:http";
import { postSync, type Spawned } from "../../bench/service";
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
    if (!yaml.includes(`x-notes: "${uniqueText(i, SETTINGS_BYTES)}"`))
      return "config.yaml lacks the provider's settings";
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

export interface HostileOptions {
  readonly requests: number;
  readonly largeEvery: number;
  readonly concurrency: number;
}

/** Sends `requests` syncs to the spawned service and checks each answer; stops early when the process died. */
export async function runHostile(service: Spawned, options: HostileOptions): Promise<HostileRun> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const wrong: string[] = [];
  let wrongCount = 0;
  let maxRss = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < options.requests && service.exitReason() === undefined; i = next++) {
      const kind = kindOf(i, options.largeEvery);
      const answer = await postSync(agent, service.url, JSON.stringify(hostileRequest(kind, i)));
      maxRss = Math.max(maxRss, service.rssBytes().now);
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
  const died = service.exitReason();
  return {
    sent: Math.min(next, options.requests),
    wrong,
    wrongCount,
    maxRssBytes: maxRss,
    peakRssBytes: service.rssBytes().peak,
    ...(died === undefined ? {} : { died }),
  };
}
