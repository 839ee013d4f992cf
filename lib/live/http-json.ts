/**
 * One bounded GET that expects JSON. Resolves with the parsed body or with a short problem
 * (stable wording, so a status built from it does not churn); never rejects and never outlives
 * its timeout. No connection is kept: a server is asked once per resync period.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";

export type JsonAnswer =
  | { readonly ok: true; readonly value: unknown }
  /** `denied`: the server asked for credentials (401/403), which the hooks do not hold. */
  | { readonly ok: false; readonly problem: string; readonly denied?: true };

export interface GetJsonOptions {
  readonly timeoutMs: number;
  /** Answers above this size are cut off and reported. */
  readonly maxBytes: number;
}

/** `1500` → `1.5 s`. */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

const CONNECTION_PROBLEMS: { readonly [code: string]: string } = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed",
};

function connectionProblem(error: NodeJS.ErrnoException): string {
  const code = error.code ?? "";
  return CONNECTION_PROBLEMS[code] ?? (code !== "" ? `connection failed (${code})` : "connection failed");
}

function statusProblem(status: number): string {
  if (status === 401 || status === 403) return `HTTP ${status} (the server requires authentication)`;
  if (status === 404) return "HTTP 404 (the server has no such endpoint)";
  return `HTTP ${status}`;
}

type Finish = (answer: JsonAnswer) => void;

function parsed(chunks: readonly Buffer[]): JsonAnswer {
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    return { ok: true, value };
  } catch {
    return { ok: false, problem: "the answer is not JSON" };
  }
}

/** Reads one answer: its status, then at most `maxBytes` of body. `abort` drops the connection. */
function onResponse(res: IncomingMessage, maxBytes: number, finish: Finish, abort: () => void): void {
  const status = res.statusCode ?? 0;
  if (status !== 200) {
    res.resume();
    const denied = status === 401 || status === 403;
    finish(
      denied ? { ok: false, problem: statusProblem(status), denied } : { ok: false, problem: statusProblem(status) },
    );
    abort();
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  res.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > maxBytes) {
      finish({ ok: false, problem: `answer larger than ${maxBytes} bytes` });
      abort();
      return;
    }
    chunks.push(chunk);
  });
  res.on("end", () => finish(parsed(chunks)));
  res.on("error", () => finish({ ok: false, problem: "connection closed" }));
}

export function getJson(url: string, options: GetJsonOptions): Promise<JsonAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    // Called only from callbacks, which run once `timer` is set.
    const finish: Finish = (answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const https = url.startsWith("https:");
    // agent: false → a fresh connection, closed after the answer; nothing lingers between checks.
    const req = (https ? httpsRequest : httpRequest)(
      url,
      {
        method: "GET",
        agent: false,
        headers: { accept: "application/json" },
        ...(https ? { rejectUnauthorized: false } : {}),
      },
      (res: IncomingMessage) => onResponse(res, options.maxBytes, finish, () => req.destroy()),
    );
    const timer = setTimeout(() => {
      finish({ ok: false, problem: `no answer within ${seconds(options.timeoutMs)}` });
      req.destroy();
    }, options.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) => finish({ ok: false, problem: connectionProblem(error) }));
    req.end();
  });
}
