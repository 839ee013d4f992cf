/**
 * The server line a LlamaStackDistribution object will run, as the sync hook picks it: a CR that
 * already runs (its status names the image, for the same distribution name) keeps its server, a
 * new v1alpha2 CR gets the current default, a v1alpha1 CR the Go operator's. Used by admission
 * and `llsd validate`, so both judge a spec by the line it will really run.
 */
import { validate, type ValidateContext } from "../api/validate";
import { toHub } from "../conversion/v1alpha1";
import { DEFAULT_DISTRIBUTIONS, type Release } from "../distributions/table";
import { lineOfObject } from "../sync/target";
import type { KubeObject } from "../wire/metacontroller";

type Json = { readonly [k: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** The line of an object whose spec validates (v1alpha1 read as stored); undefined otherwise. */
export function lineOfAdmitted(object: unknown, ctx: ValidateContext = {}, status?: unknown): Release | undefined {
  if (!isObject(object)) return undefined;
  let stored: Json = object;
  if (object.apiVersion === "llamastack.io/v1alpha1") {
    const hub = toHub(object);
    if (!hub.ok) return undefined;
    stored = hub.object as unknown as Json;
  }
  const { spec } = validate(stored.spec, ctx);
  if (!spec) return undefined;
  // Untrusted: only a metadata map is read (annotations), never assumed.
  const metadata = isObject(stored.metadata) ? stored.metadata : {};
  const parent = {
    ...stored,
    metadata: { name: "", ...metadata },
    ...(status !== undefined ? { status } : {}),
  } as unknown as KubeObject;
  return lineOfObject(parent, spec, ctx.distributions ?? DEFAULT_DISTRIBUTIONS);
}
