/**
 * A whole LlamaStackDistribution object checked as the cluster would: its kind and apiVersion,
 * its version's schema, a v1alpha1 object converted to v1alpha2 (as the apiserver stores it),
 * then `checkSpec`; on v1alpha2, the conversion's annotation too. Used by `llsd validate` and
 * `POST /validate`.
 */
import leven from "leven";
import { compile, isV1alpha2Object, schemaErrors, v1alpha2SchemaErrors } from "../api/schema";
import { V1ALPHA1_SPEC_SCHEMA } from "../api/schema-v1alpha1";
import type { ValidationResult } from "../api/validate";
import { V1ALPHA2_SPEC, withRulesOnWellTyped, type Part } from "../api/well-typed";
import { fieldError, type FieldError } from "../errors";
import { nameErrors } from "../names";
import { toHub } from "../conversion/v1alpha1";
import { readStash, V1ALPHA1_FIELDS } from "../conversion/annotations";
import { isStringMap } from "../json";
import { checkSchemaValid, checkSpec, type CheckOptions } from "./check";

export const LLSD_KIND = "LlamaStackDistribution";
export const V1ALPHA1_API = "llamastack.io/v1alpha1";
export const V1ALPHA2_API = "llamastack.io/v1alpha2";
/** Said after each problem of a v1alpha1 object: its paths are those of the stored v1alpha2 form. */
export const AS_STORED = " (as stored in v1alpha2)";

type Json = { readonly [k: string]: unknown };
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A document meant to be an LLSD: the kind, or a kind of the `llamastack.io` group, or a kind a
 * few letters away. Such a document with the wrong kind is an error, not something to skip.
 */
export function meantAsLlsd(object: unknown): boolean {
  if (!isObject(object)) return false;
  const kind = typeof object.kind === "string" ? object.kind : "";
  const api = typeof object.apiVersion === "string" ? object.apiVersion : "";
  // ProviderPackage is the metadata file inside external provider images, not a resource.
  if (kind === "ProviderPackage") return false;
  return (
    kind === LLSD_KIND || api.startsWith("llamastack.io/") || leven(kind.toLowerCase(), LLSD_KIND.toLowerCase()) <= 3
  );
}

export interface ObjectOptions extends CheckOptions {
  /** The apiVersions accepted; the admission webhook sees v1alpha2 only (the apiserver converts first). */
  readonly apiVersions?: readonly string[];
}

function envelope(object: Json, served: readonly string[]): FieldError[] {
  if (object.kind !== LLSD_KIND) {
    return [
      fieldError(
        "kind",
        `${JSON.stringify(object.kind ?? null)} is not a kind this project serves; did you mean "${LLSD_KIND}"?`,
      ),
    ];
  }
  if (!served.includes(String(object.apiVersion))) {
    return [
      fieldError(
        "apiVersion",
        `${JSON.stringify(object.apiVersion ?? null)} is not served here; use ${served.join(" or ")}`,
      ),
    ];
  }
  return [];
}

/** A v1alpha1 spec, to judge what its schema accepts (no typed form: the conversion reads it). */
const V1ALPHA1_SPEC: Part<unknown> = { schema: V1ALPHA1_SPEC_SCHEMA, prefix: "spec", parse: (spec) => spec };

/**
 * A v1alpha1 object: its own schema, then conversion, then the v1alpha2 rules (paths as stored);
 * the values its schema refuses are left out of what is converted.
 */
function checkV1alpha1(object: Json, options: CheckOptions): ValidationResult {
  const own = schemaErrors(compile(V1ALPHA1_SPEC_SCHEMA), object.spec, "spec");
  if (own.length === 0) return checkAsStored(object, options);
  return withRulesOnWellTyped(object.spec, own, V1ALPHA1_SPEC, (spec) => checkAsStored({ ...object, spec }, options));
}

function checkAsStored(object: Json, options: CheckOptions): ValidationResult {
  const hub = toHub(object);
  if (!hub.ok) return { errors: hub.errors, warnings: [] };
  const checked = checkSpec(hub.object.spec, options);
  const stored = (e: FieldError): FieldError => fieldError(e.path, `${e.message}${AS_STORED}`);
  const notes = checked.notes?.map((note) => `${note}${AS_STORED}`);
  return {
    ...checked,
    errors: checked.errors.map(stored),
    warnings: checked.warnings.map(stored),
    ...(notes ? { notes } : {}),
  };
}

function nameOf(object: Json): string | undefined {
  const name = isObject(object.metadata) ? object.metadata.name : undefined;
  return typeof name === "string" && name !== "" ? name : undefined;
}

/** Every problem of one object, as `llsd validate` prints them and /validate denies them. */
export function checkObject(object: unknown, options: ObjectOptions = {}): ValidationResult {
  if (!isObject(object))
    return { errors: [fieldError("(root)", "must be a LlamaStackDistribution object")], warnings: [] };
  const wrong = envelope(object, options.apiVersions ?? [V1ALPHA2_API, V1ALPHA1_API]);
  if (wrong.length > 0) return { errors: wrong, warnings: [] };
  const name = nameOf(object);
  // The CR's name: generation's notes name the children after it.
  const named = name !== undefined && options.name === undefined ? { ...options, name } : options;
  const verdict = object.apiVersion === V1ALPHA1_API ? checkV1alpha1(object, named) : checkV1alpha2(object, named);
  // The names the children will get: the apiserver accepts a CR name its children cannot have.
  const names = name !== undefined ? nameErrors(name) : [];
  return names.length === 0 ? verdict : { ...verdict, errors: [...names, ...verdict.errors] };
}

function checkV1alpha2(object: Json, options: CheckOptions): ValidationResult {
  // The whole object's schema covers the spec's: checked once, not again by checkSpec.
  const verdict = isV1alpha2Object(object)
    ? checkSchemaValid(object.spec, options)
    : withRulesOnWellTyped(object.spec, v1alpha2SchemaErrors(object), V1ALPHA2_SPEC, (raw) =>
        checkSchemaValid(raw, options),
      );
  // Every read of the CR as v1alpha1 (a LIST of its namespace too) restores this annotation.
  const annotations = isObject(object.metadata) ? object.metadata.annotations : undefined;
  const stash = readStash(isStringMap(annotations) ? annotations : undefined, V1ALPHA1_FIELDS);
  return stash.ok ? verdict : { ...verdict, errors: [stash.error, ...verdict.errors] };
}
