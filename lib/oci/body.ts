/**
 * Reading response bodies within a size bound, hashing as bytes arrive. A registry (or a proxy in
 * front of it) that sends more than it should is cut off, not buffered.
 */
import { createHash } from "node:crypto";
import { describeError, type RequestContext } from "./http";
import { fail, ok, REASON, type Result } from "./types";

function tooLarge(what: string, limit: number): Result<never> {
  return fail(REASON.tooLarge, `the ${what} is larger than the ${limit}-byte limit`);
}

/** The registry's error code, e.g. `MANIFEST_UNKNOWN`, for messages. Bounded read; never echoes anything else. */
export async function registryErrorCode(response: Response, ctx: RequestContext): Promise<string> {
  const body = await readBounded(response, 16 * 1024, "error body", ctx, "registry");
  if (!body.ok) return "";
  try {
    const code = (JSON.parse(body.value.toString("utf8")) as { errors?: Array<{ code?: unknown }> }).errors?.[0]?.code;
    return typeof code === "string" && /^[A-Z_]{1,64}$/.test(code) ? ` ${code}` : "";
  } catch {
    return "";
  }
}

/** Whole body, at most `limit` bytes; Content-Length is checked before reading anything. */
export async function readBounded(
  response: Response,
  limit: number,
  what: string,
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
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel();
        return tooLarge(what, limit);
      }
      chunks.push(Buffer.from(value));
    }
  } catch (err) {
    return describeError(err, ctx, host);
  }
  return ok(Buffer.concat(chunks, total));
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
