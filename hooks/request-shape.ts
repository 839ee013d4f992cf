/**
 * The wire shape of a hook request, checked before `lib/` sees it (pure, no express). Only a
 * malformed request gets a 4xx (docs/failure-policy.md): what the spec *says* is `lib/`'s business and
 * becomes a status, so `parent.spec` only has to be an object here.
 *
 * Each check returns the first problem as one sentence that starts with the field path, e.g.
 * `parent.metadata.namespace is required` or `children["Deployment.apps/v1"]["ns/a"].kind must
 * be a string, got number`. Map keys (which hold dots and slashes) are written as `["key"]`.
 */
import { isPlainObject, isStringMap } from "../lib/json";
import { child } from "../lib/errors";
import { isKubeObject, type CustomizeRequest, type ObjectMap, type SyncRequest } from "../lib/wire/metacontroller";

export type Shape<T> = { readonly ok: true; readonly request: T } | { readonly ok: false; readonly error: string };

type JsonObject = { readonly [k: string]: unknown };

export function syncRequestShape(body: unknown): Shape<SyncRequest> {
  if (!isPlainObject(body)) return fail(bodyProblem(body));
  const problem =
    parentProblem(body.parent) ??
    mapProblem("children", body.children) ??
    mapProblem("related", body.related) ??
    optionalBooleanProblem("finalizing", body.finalizing);
  if (problem) return fail(problem);
  const request = withoutNullMaps(body);
  return isSyncRequest(request) ? { ok: true, request } : fail(NOT_A_REQUEST);
}

export function customizeRequestShape(body: unknown): Shape<CustomizeRequest> {
  if (!isPlainObject(body)) return fail(bodyProblem(body));
  const problem = parentProblem(body.parent);
  if (problem) return fail(problem);
  return isCustomizeRequest(body) ? { ok: true, request: body } : fail(NOT_A_REQUEST);
}

/** Unreachable once the checks above passed; the guards below are what lets the types follow. */
const NOT_A_REQUEST = "request body is not a Metacontroller hook request";

function isCustomizeRequest(value: unknown): value is CustomizeRequest {
  return isPlainObject(value) && isKubeObject(value.parent);
}

function isSyncRequest(value: unknown): value is SyncRequest {
  if (!isPlainObject(value) || !isKubeObject(value.parent)) return false;
  const { children, related, finalizing } = value;
  return (
    (children === undefined || isObjectMap(children)) &&
    (related === undefined || isObjectMap(related)) &&
    (finalizing === undefined || typeof finalizing === "boolean")
  );
}

function isObjectMap(value: unknown): value is ObjectMap {
  return (
    isPlainObject(value) &&
    Object.values(value).every((objects) => isPlainObject(objects) && Object.values(objects).every(isKubeObject))
  );
}

function bodyProblem(body: unknown): string {
  if (body === undefined) return "request body is required: a JSON object";
  return `request body must be a JSON object, got ${typeOf(body)}`;
}

/** The parent is namespaced and has a spec (the CRD requires one). */
function parentProblem(parent: unknown): string | undefined {
  const problem = kubeObjectProblem("parent", parent);
  if (problem !== undefined || !isKubeObject(parent)) return problem ?? NOT_A_REQUEST;
  return (
    stringProblem("parent.metadata.namespace", parent.metadata.namespace) ?? objectProblem("parent.spec", parent.spec)
  );
}

/** What every object Metacontroller sends carries: apiVersion, kind and metadata.name (and well-typed metadata). */
function kubeObjectProblem(path: string, value: unknown): string | undefined {
  if (!isPlainObject(value)) return objectProblem(path, value);
  return (
    stringProblem(child(path, "apiVersion"), value.apiVersion) ??
    stringProblem(child(path, "kind"), value.kind) ??
    metadataProblem(child(path, "metadata"), value.metadata)
  );
}

function metadataProblem(path: string, metadata: unknown): string | undefined {
  if (!isPlainObject(metadata)) return objectProblem(path, metadata);
  const { namespace, uid, generation, labels, annotations } = metadata;
  return (
    stringProblem(child(path, "name"), metadata.name) ??
    optionalProblem(child(path, "namespace"), namespace, "a string", (v) => typeof v === "string") ??
    optionalProblem(child(path, "uid"), uid, "a string", (v) => typeof v === "string") ??
    optionalProblem(child(path, "generation"), generation, "a number", (v) => typeof v === "number") ??
    optionalProblem(child(path, "labels"), labels, "a map of strings", isStringMap) ??
    optionalProblem(child(path, "annotations"), annotations, "a map of strings", isStringMap)
  );
}

function optionalProblem(
  path: string,
  value: unknown,
  what: string,
  check: (value: unknown) => boolean,
): string | undefined {
  return value === undefined || check(value) ? undefined : `${path} must be ${what}, got ${typeOf(value)}`;
}

/** `{ "Kind.apiVersion": { "name" | "ns/name": object } }`; absent or null means empty. */
function mapProblem(path: string, map: unknown): string | undefined {
  if (map === undefined || map === null) return undefined;
  if (!isPlainObject(map)) return `${path} must be an object keyed by Kind.apiVersion, got ${typeOf(map)}`;
  for (const [kind, objects] of Object.entries(map)) {
    const kindPath = keyPath(path, kind);
    if (!isPlainObject(objects)) return objectProblem(kindPath, objects);
    for (const [key, object] of Object.entries(objects)) {
      const objectProblemFound = kubeObjectProblem(keyPath(kindPath, key), object);
      if (objectProblemFound) return objectProblemFound;
    }
  }
  return undefined;
}

function objectProblem(path: string, value: unknown): string | undefined {
  if (value === undefined) return `${path} is required`;
  return isPlainObject(value) ? undefined : `${path} must be an object, got ${typeOf(value)}`;
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

function typeOf(value: unknown): string {
  if (value === null) return "null";
  return Array.isArray(value) ? "array" : typeof value;
}

function fail(error: string): { readonly ok: false; readonly error: string } {
  return { ok: false, error };
}
