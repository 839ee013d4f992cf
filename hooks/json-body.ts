/**
 * The one JSON body parser every POST endpoint uses (`/sync`, `/customize`, `/validate`,
 * `/convert`), with the bounds a request from outside must not get past:
 *
 * - 8 MB (the default 100 kB rejects real Metacontroller requests: a sync request carries the
 *   parent, every observed child with managedFields, and every related Secret and ConfigMap);
 * - at most `MAX_JSON_DEPTH` nested objects and arrays. `JSON.parse` itself copes with deep
 *   nesting, but the code behind it (schema checks, normalisation, deep merges, conversion)
 *   walks objects recursively: 100 000 nested `[` in a 200 kB body would overflow the stack
 *   there and end as a 500. Real Kubernetes objects nest about 20 levels (managedFields);
 *   the hook envelope adds 4.
 *
 * `strict: false` lets `42` or `"x"` through to the shape check, which says what is wrong.
 */
import express, { type Request, type Response } from "express";

export const MAX_BODY = "8mb";
export const MAX_JSON_DEPTH = 128;

/** body-parser turns an error thrown by `verify` into a 4xx with this `type` (see errors.ts). */
export const TOO_DEEP = "entity.too.deep";

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * Whether `{`/`[` nest deeper than `limit` in `bytes`, stopping as soon as they do. Brackets
 * inside strings do not count. Most of a Kubernetes body is string content, so strings are
 * skipped with `indexOf` (native memchr) rather than byte by byte: a 43 kB sync request costs
 * about a tenth of its `JSON.parse`. No allocation.
 */
export function jsonDepthExceeds(bytes: Uint8Array, limit: number): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let depth = 0;
  let i = 0;
  while (i < buffer.length) {
    const b = buffer[i];
    if (b === QUOTE) {
      i = stringEnd(buffer, i + 1);
      continue;
    }
    if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
      depth--;
    }
    i++;
  }
  return false;
}

/** The index after the quote that closes the string whose content starts at `from` (the end when unclosed). */
function stringEnd(buffer: Buffer, from: number): number {
  for (let at = buffer.indexOf(QUOTE, from); at !== -1; at = buffer.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (at - 1 - backslashes >= from && buffer[at - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at + 1;
  }
  return buffer.length;
}

function checkDepth(_req: unknown, _res: unknown, buffer: Buffer): void {
  if (jsonDepthExceeds(buffer, MAX_JSON_DEPTH)) {
    throw Object.assign(new Error("request body nests too deep"), { status: 400, type: TOO_DEEP });
  }
}

const parser = express.json({ limit: MAX_BODY, strict: false, type: "application/json", verify: checkDepth });

/** Parses `req.body`; rejects with body-parser's error (its `type` says which) when it cannot. */
export function parseJsonBody(req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    // body-parser's errors are Errors (HttpErrors); anything else it might pass still fails the call.
    parser(req, res, (err?: unknown) =>
      err ? reject(err instanceof Error ? err : new Error("the request body could not be read")) : resolve(),
    ),
  );
}
