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
import { isPlainObject } from "../lib/json";

export const MAX_BODY = "8mb";
export const MAX_JSON_DEPTH = 128;

/** The `type` of the error for a body that nests too deep (errors.ts answers it with a 400). */
export const TOO_DEEP = "entity.too.deep";

/**
 * Whether objects and arrays nest deeper than `limit` in a parsed JSON value, stopping as soon
 * as they do: a top-level object or array is depth 1. Checked on the parsed value, not the
 * bytes: body-parser hands a `verify` step the raw bytes only after joining its chunks into one
 * Buffer, a copy that cost more than the scan, while V8's `JSON.parse` is not recursive and
 * parses any nesting. The walk recurses at most `limit` frames.
 */
export function jsonDepthExceeds(value: unknown, limit: number): boolean {
  return isNested(value) && nestsDeeper(value, limit);
}

/**
 * `jsonDepthExceeds` of an object or array, in one function that calls itself only for the
 * objects and arrays inside: a call for every string and number, and `Reflect.get` for each
 * field, cost half as many instructions again on the recorded /sync bodies (callgrind). A parsed body's
 * objects are plain: `node[key]` of a for-in key reads the same own field.
 */
function nestsDeeper(node: unknown, limit: number): boolean {
  if (limit === 0) return true;
  if (Array.isArray(node)) {
    for (const item of node as readonly unknown[]) if (isNested(item) && nestsDeeper(item, limit - 1)) return true;
    return false;
  }
  if (!isPlainObject(node)) return false;
  for (const key in node) {
    const item = node[key];
    if (isNested(item) && nestsDeeper(item, limit - 1)) return true;
  }
  return false;
}

const isNested = (value: unknown): value is object => typeof value === "object" && value !== null;

const parser = express.json({ limit: MAX_BODY, strict: false, type: "application/json" });

/** Parses `req.body`; rejects with body-parser's error (its `type` says which) when it cannot. */
export function parseJsonBody(req: Request, res: Response): Promise<void> {
  return new Promise<void>((resolve, reject) =>
    // body-parser's errors are Errors (HttpErrors); anything else it might pass still fails the call.
    parser(req, res, (err?: unknown) => {
      if (err) return reject(err instanceof Error ? err : new Error("the request body could not be read"));
      if (!jsonDepthExceeds(req.body, MAX_JSON_DEPTH)) return resolve();
      reject(Object.assign(new Error("request body nests too deep"), { status: 400, type: TOO_DEEP }));
    }),
  );
}
