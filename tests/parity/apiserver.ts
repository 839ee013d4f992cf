/**
 * What the apiserver does to a LlamaStackDistribution between a client and Metacontroller, with
 * the committed CRD's own `default:` values (crds/ is generated from lib/api) and the conversion
 * POST /convert runs: a write defaults in the version written, then converts to v1alpha2 for
 * storage; a read defaults in v1alpha2 (the stored version), then converts to the version asked.
 * A client's read-modify-write (kubectl edit, a controller's update) is a read then a write of
 * what it read, in one version.
 */
import { fromHub, toHub } from "../../lib/conversion/v1alpha1";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { applyDefaults, committedCrd, versionSchema } from "../crd/crd-helpers";

export const V1 = "llamastack.io/v1alpha1";
export const V2 = "llamastack.io/v1alpha2";
export type Version = typeof V1 | typeof V2;

const CRD = committedCrd();
const SCHEMAS = { [V1]: versionSchema(CRD, "v1alpha1"), [V2]: versionSchema(CRD, "v1alpha2") };

function converted(object: KubeObject, to: Version): KubeObject {
  if (object.apiVersion === to) return object;
  const result = to === V2 ? toHub(object) : fromHub(object);
  if (!result.ok) throw new Error(`conversion to ${to} failed: ${JSON.stringify(result.errors)}`);
  return result.object as unknown as KubeObject;
}

const defaulted = (object: KubeObject): KubeObject =>
  applyDefaults(SCHEMAS[object.apiVersion as Version], object) as KubeObject;

/** A create or update in the object's own version: what etcd then holds (v1alpha2). */
export function write(object: KubeObject): KubeObject {
  return converted(defaulted(object), V2);
}

/** A get in `version` of what etcd holds. */
export function read(stored: KubeObject, version: Version): KubeObject {
  return converted(defaulted(stored), version);
}

/** A client that reads in `version` and writes back what it read (no change of its own). */
export function readModifyWrite(stored: KubeObject, version: Version): KubeObject {
  return write(read(stored, version));
}

/** Every sequence of up to `depth` read-modify-writes, in either version (the empty one first). */
export function roundTripPaths(depth: number): Version[][] {
  const paths: Version[][] = [[]];
  for (let i = 0; i < paths.length; i++) {
    const path = paths[i]!;
    if (path.length < depth) paths.push([...path, V1], [...path, V2]);
  }
  return paths;
}

/** What etcd holds after `path`, starting from a create of `manifest`. */
export function storedAfter(manifest: KubeObject, path: readonly Version[]): KubeObject {
  return path.reduce(readModifyWrite, write(manifest));
}

/** RFC 7386 JSON merge patch: what `kubectl apply` of an unchanged manifest sends for the fields it sets. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const out: { [k: string]: unknown } =
    typeof target === "object" && target !== null && !Array.isArray(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** `kubectl apply` of the manifest again, in its own version, over what etcd holds. */
export function reapply(stored: KubeObject, manifest: KubeObject): KubeObject {
  return write(mergePatch(read(stored, manifest.apiVersion as Version), manifest) as KubeObject);
}
