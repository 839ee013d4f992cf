/**
 * Bearer-token authentication for the Metacontroller hooks (`/sync`, `/customize`;
 * docs/security.md). Metacontroller ≥ 4.16 sends `Authorization: Bearer <token>` from a Secret named in the
 * CompositeController (`authorization.secretRef`); the hooks compare it with their own copy:
 *
 * - `HOOK_BEARER_TOKEN`: the token itself (from a `secretKeyRef` env var), or
 * - `HOOK_BEARER_TOKEN_FILE`: a file holding it (the same Secret mounted as a volume), re-read
 *   when it changes, so a rotated Secret takes effect without a restart (the kubelet swaps the
 *   mounted file within about a minute; the file is checked at most once a second).
 *
 * Neither set: no authentication (local use, or clusters where the NetworkPolicy is enough).
 * The apiserver's `/validate` and `/convert` never carry a token and are not covered: they
 * are protected by TLS and the NetworkPolicy. Probes and `/metrics` stay open.
 *
 * The comparison hashes both tokens to SHA-256 and compares the digests with
 * `crypto.timingSafeEqual`: the time taken depends neither on where the tokens differ nor on
 * their lengths. A rejected call gets 401 JSON with `WWW-Authenticate: Bearer`; the log line
 * says why (missing, malformed, invalid), never what was sent.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import type { RequestHandler } from "express";
import type pino from "pino";
import { messageOf } from "../lib/errors";
import { sendError } from "./errors";
import { hookLabelOf, type HookMetrics } from "./metrics";

/** Where the expected token comes from: its SHA-256 digest now, or undefined when there is none. */
export interface TokenSource {
  digest(): Buffer | undefined;
}

const sha256 = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** A token given in the environment. Surrounding whitespace (a trailing newline) is not part of it. */
export function staticToken(token: string): TokenSource {
  const trimmed = token.trim();
  if (trimmed === "") throw new Error("the bearer token is empty");
  const digest = sha256(trimmed);
  return { digest: () => digest };
}

export interface FileTokenOptions {
  readonly logger: pino.Logger;
  /** Look at the file at most this often. @default 1000 */
  readonly checkIntervalMs?: number;
  /** Monotonic milliseconds. @default performance.now */
  readonly now?: () => number;
}

/**
 * A token read from `path` now (a missing or empty file throws: the service should not start)
 * and again whenever the file's identity (inode, size, mtime) changes. A file that disappears
 * or turns empty keeps the last good token in use (a Secret update replaces the file in one
 * step; a half-done change must not lock Metacontroller out), with a warning.
 */
export function fileToken(path: string, options: FileTokenOptions): TokenSource {
  const interval = options.checkIntervalMs ?? 1000;
  const now = options.now ?? (() => performance.now());
  const read = (): { digest: Buffer; identity: string } => {
    const stat = statSync(path);
    const token = readFileSync(path, "utf8").trim();
    if (token === "") throw new Error(`${path} is empty`);
    return { digest: sha256(token), identity: `${stat.ino}:${stat.size}:${stat.mtimeMs}` };
  };
  let current = read();
  let checkedAt = now();
  let warned = false;
  return {
    digest() {
      if (now() - checkedAt < interval) return current.digest;
      checkedAt = now();
      try {
        const stat = statSync(path);
        if (`${stat.ino}:${stat.size}:${stat.mtimeMs}` !== current.identity) {
          current = read();
          warned = false;
          options.logger.info({ file: path }, "Bearer token reloaded");
        }
      } catch (err) {
        if (!warned)
          options.logger.warn(
            { file: path, reason: messageOf(err) },
            "Cannot re-read the bearer token file; the previous token stays in use",
          );
        warned = true;
      }
      return current.digest;
    },
  };
}

/**
 * `HOOK_BEARER_TOKEN` or `HOOK_BEARER_TOKEN_FILE` → the token source; neither → undefined.
 * Both set, an empty token or an unreadable file throw (a configuration mistake must not turn
 * into an open service).
 */
export function tokenSourceFromEnv(env: NodeJS.ProcessEnv, logger: pino.Logger): TokenSource | undefined {
  const token = env.HOOK_BEARER_TOKEN;
  const file = env.HOOK_BEARER_TOKEN_FILE?.trim();
  const hasToken = token !== undefined && token !== "";
  const hasFile = file !== undefined && file !== "";
  if (hasToken && hasFile) throw new Error("set HOOK_BEARER_TOKEN or HOOK_BEARER_TOKEN_FILE, not both");
  if (hasToken) {
    try {
      return staticToken(token);
    } catch {
      throw new Error("HOOK_BEARER_TOKEN is empty");
    }
  }
  if (hasFile) {
    try {
      return fileToken(file, { logger });
    } catch (err) {
      throw new Error(`HOOK_BEARER_TOKEN_FILE: ${messageOf(err)}`, { cause: err });
    }
  }
  return undefined;
}

export type AuthProblem = "missing" | "malformed" | "invalid";

/** Checks an `Authorization` header value against `expected` (a SHA-256 digest) in constant time. */
export function checkBearer(header: string | undefined, expected: Buffer): AuthProblem | undefined {
  if (header === undefined || header.trim() === "") return "missing";
  const match = /^\s*bearer[ \t]+(\S+)\s*$/i.exec(header);
  if (match === null) return "malformed";
  return timingSafeEqual(sha256(match[1]!), expected) ? undefined : "invalid";
}

const MESSAGES: { readonly [problem in AuthProblem]: string } = {
  missing: "authentication required: send Authorization: Bearer <token>",
  malformed: "the Authorization header must be: Bearer <token>",
  invalid: "the bearer token is not valid",
};

export interface AuthDeps {
  readonly logger: pino.Logger;
  readonly metrics: HookMetrics;
}

/** Middleware for the hook paths; `source` undefined = open. */
export function requireBearer(source: TokenSource | undefined, { logger, metrics }: AuthDeps): RequestHandler {
  return (req, res, next) => {
    const expected = source?.digest();
    if (expected === undefined) return next();
    const problem = checkBearer(req.headers.authorization, expected);
    if (problem === undefined) return next();
    const hook = hookLabelOf(req);
    metrics.observe(hook, "unauthorized", 0);
    logger.warn({ hook, outcome: "unauthorized", status: 401, reason: problem }, "Rejected unauthenticated hook call");
    res.set(
      "WWW-Authenticate",
      problem === "missing" ? 'Bearer realm="llsd-hooks"' : 'Bearer realm="llsd-hooks", error="invalid_token"',
    );
    sendError(res, { status: 401, message: MESSAGES[problem] });
  };
}
