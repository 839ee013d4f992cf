/**
 * Reading response bodies within a size bound, hashing as bytes arrive. A registry (or a proxy in
 * front of it) that sends more than it should is cut off, not buffered.
 */
import { createHash } from "node:crypto";
import { isPlainObject } from "../json";
import { describeError, type RequestContext } from "./http";
import { fail, ok, REASON, type Result } from "./types";

function tooLarge(what: string, limit: number): Result<never> {
  return fail(REASON.tooLarge, `the ${what} is larger than the ${limit}-byte limit`);
}

/** The registry's error code, e.g. `MANIFEST_UNKNOWN`, for messages. Bounded read; never echoes anything else. */
export async function registryErrorCode(response: Response, ctx: RequestContext): Promise<string> {
  const body = await readBounded(response, { limit: 16 * 1024, what: "error body" }, ctx, "registry");
  if (!body.ok) return "";
  try {
    const code = firstErrorCode(JSON.parse(body.value.toString("utf8")));
    return typeof code === "string" && /^[A-Z_]{1,64}$/.test(code) ? ` ${code}` : "";
  } catch {
    return "";
  }
}

/** `{"errors": [{"code": …}]}` → that first code, unchecked; anything else → undefined. */
function firstErrorCode(doc: unknown): unknown {
  const errors = isPlainObject(doc) ? doc.errors : undefined;
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  return isPlainObject(first) ? first.code : undefined;
}

/** How much of a body to read, and what to call it in messages. */
export interface Bound {
  readonly limit: number;
  readonly what: string;
}

/** Whole body, at most `limit` bytes; Content-Length is checked before reading anything. */
export async function readBounded(
  response: Response,
  { limit, what }: Bound,
  ctx: RequestContext,
  host: string,
): Promise<Result<Buffer>> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > limit) {
    await response.body?.cancel();
    return tooLarge(what, limit);
  }
  if (response.body === null) return ok(Buffer.alloc(0));
  const reader = response.body.getReader();
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      const chunk = bytesOf(read.value);
      total += chunk.length;
      if (total > limit) {
        await reader.cancel();
        return tooLarge(what, limit);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    return describeError(err, ctx, host);
  }
  return ok(Buffer.concat(chunks, total));
}

/**
 * The body's chunks as they arrive. Leaving the loop early cancels the body, so the connection
 * is not left holding unread bytes.
 */
export async function* bodyChunks(response: Response): AsyncGenerator<Buffer, void, undefined> {
  if (response.body === null) return;
  const reader = response.body.getReader();
  let finished = false;
  try {
    for (;;) {
      const read = await reader.read();
      if (read.done) break;
      yield bytesOf(read.value);
    }
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

/** A copy of one chunk of a fetch body (bytes by the fetch spec; anything else is a bug upstream). */
function bytesOf(value: unknown): Buffer {
  if (!ArrayBuffer.isView(value)) throw new TypeError("a response body chunk is not bytes");
  return Buffer.from(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
}

export function sha256Digest(bytes: Buffer): string {
  return `sha256:${createHash("sha256").update(bytes).digest("hex")}`;
}

/** Content addressing is the only integrity check a registry gives us: a blob must hash to its digest. */
export function verifyDigest(bytes: Buffer, expected: string, what: string): Result<Buffer> {
  const actual = sha256Digest(bytes);
  if (actual !== expected)
    return fail(REASON.digestMismatch, `the ${what} does not match its digest ${expected} (got ${actual})`, true);
  return ok(bytes);
}
