/**
 * The wire shape of a hook request, checked before `lib/` sees it (pure, no express). Only a
 * malformed request gets a 4xx (DESIGN §9): what the spec *says* is `lib/`'s business and
 * becomes a status, so `parent.spec` only has to be an object here.
 *
 * Each check returns the first problem as one sentence that starts with the field path, e.g.
 * `parent.metadata.namespace is required` or `children["Deployment.apps/v1"]["ns/a"].kind must
 * be a string, got number`. Map keys (which hold dots and slashes) are written as `["key"]`.
 */
import { child } from "../lib/errors";
import type { CustomizeRequest, SyncRequest } from "../lib/wire/metacontroller";

export type Shape<T> = { readonly ok: true; readonly request: T } | { readonly ok: false; readonly error: string };

type JsonObject = { readonly [k: string]: unknown };

export function syncRequestShape(body: unknown): Shape<SyncRequest> {
  if (!isObject(body)) return fail(bodyProblem(body));
  const problem =
    parentProblem(body.parent) ??
    mapProblem("children", body.children) ??
    mapProblem("related", body.related) ??
    optionalBooleanProblem("finalizing", body.finalizing);
  if (problem) return fail(problem);
  return { ok: true, request: withoutNullMaps(body) as unknown as SyncRequest };
}

export function customizeRequestShape(body: unknown): Shape<CustomizeRequest> {
  if (!isObject(body)) return fail(bodyProblem(body));
  const problem = parentProblem(body.parent);
  if (problem) return fail(problem);
  return { ok: true, request: body as unknown as CustomizeRequest };
}

function bodyProblem(body: unknown): string {
  if (body === undefined) return "request body is required: a JSON object";
  return `request body must be a JSON object, got ${typeOf(body)}`;
}

/** The parent is namespaced and has a spec (the CRD requires one). */
function parentProblem(parent: unknown): string | undefined {
  return (
    kubeObjectProblem("parent", parent) ??
    stringProblem("parent.metadata.namespace", (parent as { metadata: JsonObject }).metadata.namespace) ??
    objectProblem("parent.spec", (parent as JsonObject).spec)
  );
}

/** What every object Metacontroller sends carries: apiVersion, kind and metadata.name. */
function kubeObjectProblem(path: string, value: unknown): string | undefined {
  const problem = objectProblem(path, value);
  if (problem) return problem;
  const object = value as JsonObject;
  return (
    stringProblem(child(path, "apiVersion"), object.apiVersion) ??
    stringProblem(child(path, "kind"), object.kind) ??
    objectProblem(child(path, "metadata"), object.metadata) ??
    stringProblem(child(path, "metadata.name"), (object.metadata as JsonObject).name)
  );
}

/** `{ "Kind.apiVersion": { "name" | "ns/name": object } }`; absent or null means empty. */
function mapProblem(path: string, map: unknown): string | undefined {
  if (map === undefined || map === null) return undefined;
  if (!isObject(map)) return `${path} must be an object keyed by Kind.apiVersion, got ${typeOf(map)}`;
  for (const [kind, objects] of Object.entries(map)) {
    const kindPath = keyPath(path, kind);
    const problem = objectProblem(kindPath, objects);
    if (problem) return problem;
    for (const [key, object] of Object.entries(objects as JsonObject)) {
      const objectProblemFound = kubeObjectProblem(keyPath(kindPath, key), object);
      if (objectProblemFound) return objectProblemFound;
    }
  }
  return undefined;
}

function objectProblem(path: string, value: unknown): string | undefined {
  if (value === undefined) return `${path} is required`;
  return isObject(value) ? undefined : `${path} must be an object, got ${typeOf(value)}`;
}

function stringProblem(path: string, value: unknown): string | undefined {
  if (value === undefined || value === "") return `${path} is required`;
  return typeof value === "string" ? undefined : `${path} must be a string, got ${typeOf(value)}`;
}

function optionalBooleanProblem(path: string, value: unknown): string | undefined {
  if (value === undefined || typeof value === "boolean") return undefined;
  return `${path} must be a boolean, got ${typeOf(value)}`;
}

/** A hook version v1 request may carry `null` for an empty map (a nil Go map); lib/ gets it absent. */
function withoutNullMaps(body: JsonObject): JsonObject {
  if (body.children !== null && body.related !== null) return body;
  const { children, related, ...rest } = body;
  return { ...rest, ...(children === null ? {} : { children }), ...(related === null ? {} : { related }) };
}

function keyPath(path: string, key: string): string {
  return `${path}[${JSON.stringify(key)}]`;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function fail(error: string): { readonly ok: false; readonly error: string } {
  return { ok: false, error };
}
