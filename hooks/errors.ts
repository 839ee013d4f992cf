/**
 * Every error answer is JSON `{error: "..."}` with a message we wrote: never an HTML page from
 * express's default handler, never a stack, never a parser message (Node's JSON.parse quotes
 * the body it failed on, and a body can hold Secret values).
 */
import { STATUS_CODES } from "node:http";
import type { ErrorRequestHandler, RequestHandler, Response } from "express";
import type pino from "pino";
import type { Request } from "express";
import { MAX_JSON_DEPTH, parseJsonBody, TOO_DEEP } from "./json-body";
import { scrubError } from "./redact";

export interface HttpError {
  readonly status: number;
  readonly message: string;
}

/** Fixed messages for body-parser's and raw-body's error `type`s. */
const BODY_ERRORS: { readonly [type: string]: HttpError } = {
  "entity.parse.failed": { status: 400, message: "request body is not valid JSON" },
  "entity.too.large": { status: 413, message: "request body is too large" },
  "request.aborted": { status: 400, message: "request aborted before its body was read" },
  "request.size.invalid": { status: 400, message: "request body size does not match its content-length" },
  "charset.unsupported": { status: 415, message: "request body charset must be utf-8" },
  "encoding.unsupported": { status: 415, message: "request content-encoding is not supported" },
  [TOO_DEEP]: { status: 400, message: `request body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep` },
};

export const INTERNAL_ERROR: HttpError = { status: 500, message: "internal error" };

/** The answer for a thrown error: a known client error keeps its 4xx, anything else is ours (500). */
export function httpErrorOf(err: unknown): HttpError {
  const { type, status } = (typeof err === "object" && err !== null ? err : {}) as { type?: unknown; status?: unknown };
  const known = typeof type === "string" ? BODY_ERRORS[type] : undefined;
  if (known) return known;
  if (typeof status === "number" && status >= 400 && status < 500) {
    return { status, message: (STATUS_CODES[status] ?? "client error").toLowerCase() };
  }
  return INTERNAL_ERROR;
}

export function sendError(res: Response, { status, message }: HttpError): void {
  res.status(status).json({ error: message });
}

/** Unknown route. Express would answer an HTML page. */
export const notFound: RequestHandler = (req, res) => {
  sendError(res, { status: 404, message: `no such endpoint: ${req.method} ${req.path}` });
};

/**
 * A hook endpoint: POST goes to `handler`, any other method gets 405. The app has already
 * matched the path (app.ts `byPath`), so an Express Router with one route would only repeat
 * that match on every call. A rejected handler goes to the error handler, as Express does.
 */
export function postOnly(handler: (req: Request, res: Response) => Promise<void>): RequestHandler {
  const refuse = methodNotAllowed(["POST"]);
  return (req, res, next) => {
    if (req.method !== "POST") return void refuse(req, res, next);
    handler(req, res).catch(next);
  };
}

/** Known route, other method: 405 with the `Allow` header RFC 9110 asks for. */
export function methodNotAllowed(allow: readonly string[]): RequestHandler {
  return (req, res) => {
    res.set("Allow", allow.join(", "));
    sendError(res, { status: 405, message: `${req.method} is not allowed on ${req.path}; use ${allow.join(" or ")}` });
  };
}

/** The last middleware: errors from non-hook routes (hook routes answer their own). */
export function errorHandler(logger: pino.Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const answer = httpErrorOf(err);
    if (answer.status >= 500) logger.error({ err, method: req.method, path: req.path }, "Request failed");
    // Half a response is already on the wire: cutting the connection is the only honest answer.
    if (res.headersSent) return void res.destroy();
    sendError(res, answer);
  };
}

/**
 * Reads a POST's JSON body into `req.body` (every route's first step): undefined when it could;
 * otherwise the answer (415 for another content type, body-parser's 4xx) and the error to log,
 * scrubbed, since body-parser's errors carry the raw body.
 */
export async function readJsonBody(
  req: Request,
  res: Response,
): Promise<{ readonly answer: HttpError; readonly err?: Error } | undefined> {
  try {
    await parseJsonBody(req, res);
  } catch (err) {
    return { answer: httpErrorOf(err), err: scrubError(err, []) };
  }
  // The parser reads only JSON: a body left unread had another content type (asked only then).
  if (req.body === undefined && req.is("application/json") === false)
    return { answer: { status: 415, message: "content-type must be application/json" } };
  return undefined;
}
