/**
 * The server line a LlamaStackDistribution object will run, as the sync hook picks it: a CR that
 * already runs (its status names the image, for the same distribution name) keeps its server, a
 * new v1alpha2 CR gets the current default, a v1alpha1 CR the Go operator's. Used by admission
 * and `llsd validate`, so both judge a spec by the line it will really run.
 */
import type { CanonicalSpec } from "../api/canonical";
import { normalizedSpec, type ValidateContext } from "../api/validate";
import { isPlainObject, isStringMap, type JsonMap } from "../json";
import { toHub } from "../conversion/v1alpha1";
import { DEFAULT_DISTRIBUTIONS, type Release } from "../distributions/table";
import { lineOfObject } from "../sync/target";
import type { KubeObject } from "../wire/metacontroller";

type Json = { readonly [k: string]: unknown };

/** The line of an object whose spec passes the schema (v1alpha1 read as stored); undefined otherwise. */
export function lineOfAdmitted(object: unknown, ctx: ValidateContext = {}, status?: unknown): Release | undefined {
  if (!isPlainObject(object)) return undefined;
  let stored: Json = object;
  if (object.apiVersion === "llamastack.io/v1alpha1") {
    const hub = toHub(object);
    if (!hub.ok) return undefined;
    stored = hub.object;
  }
  // The line reads only the normalized distribution: the semantic rules are checkObject's job.
  const spec = normalizedSpec(stored.spec);
  return spec && lineOfSpec(stored, spec, ctx, status);
}

/** The line of a stored (v1alpha2) object whose spec normalized to `spec`. */
export function lineOfSpec(stored: Json, spec: CanonicalSpec, ctx: ValidateContext = {}, status?: unknown): Release {
  return lineOfObject(asParent(stored, status), spec, ctx.distributions ?? DEFAULT_DISTRIBUTIONS);
}

/**
 * The object as the sync hook's line choice reads it (name, annotations, status). Untrusted:
 * only the parts of the right shape are taken, never assumed; annotations that are not all
 * strings are left out, as a conversion would refuse them.
 */
export function asParent(stored: Json, status?: unknown): KubeObject {
  const metadata: JsonMap = isPlainObject(stored.metadata) ? stored.metadata : {};
  const { name, annotations } = metadata;
  return {
    ...stored,
    apiVersion: typeof stored.apiVersion === "string" ? stored.apiVersion : "",
    kind: typeof stored.kind === "string" ? stored.kind : "",
    metadata: { name: typeof name === "string" ? name : "", ...(isStringMap(annotations) ? { annotations } : {}) },
    ...(status !== undefined ? { status } : {}),
  };
}
