/**
 * What the peer's API refuses in an OGXServer, worded like our own schema errors
 * (lib/api/schema.ts): a dotted field path, the allowed values, the field or value a typo
 * meant; then the CEL rules' messages (lib/ogx/schema.ts). Reading an OGXServer also needs a
 * distribution llsd-hooks knows: the peer's other names are refused with the image to pin.
 */
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { describeError, toFieldPath } from "../api/schema";
import { celFailures, toAjvSchema } from "../crd/check";
import { distributionNames } from "../distributions/table";
import { fieldError, type FieldError } from "../errors";
import { didYouMean } from "../suggest";
import { own } from "../json";
import { OGX_OBJECT_SCHEMA } from "./schema";
import { OGX_DISTRIBUTION_NAMES } from "./spec-to";

// `verbose`: describeError reads the value given and the schema's fields (as lib/api/schema.ts's).
const ajv = addFormats(new Ajv({ allErrors: true, verbose: true, strict: true, strictTypes: false }));
let validate: ValidateFunction | undefined;

/** A CEL failure's path (`/spec/x` or `spec.x`) in our dotted form. */
const dotted = (path: string): string => path.replace(/^\//, "").replace(/\//g, ".") || "(root)";

/** The structure first (as the apiserver: no rule runs on an object of the wrong shape), then every CEL rule. */
export function ogxSchemaErrors(object: unknown): FieldError[] {
  validate ??= ajv.compile(toAjvSchema(OGX_OBJECT_SCHEMA));
  if (!validate(object))
    return (validate.errors ?? []).map((e) => fieldError(toFieldPath(e.instancePath) || "(root)", describeError(e)));
  return celFailures(OGX_OBJECT_SCHEMA, object).failures.map((f) =>
    fieldError(dotted(f.path), `${f.message}${f.error ? ` (${f.error})` : ""}`),
  );
}

/**
 * An OGXServer's `distribution.name` that llsd-hooks has no image for: the peer's own names it
 * does not share (`remote-vllm`, `meta-reference-gpu`), typos, names neither knows (`rh-dev`).
 * The fix is the image the server runs, which the running Deployment says.
 */
export function ogxDistributionErrors(object: unknown): FieldError[] {
  const name = own(own(own(object, "spec"), "distribution"), "name");
  const ours = distributionNames();
  if (typeof name !== "string" || ours.includes(name)) return [];
  const server = own(own(object, "metadata"), "name");
  const namespace = own(own(object, "metadata"), "namespace");
  const where = `${typeof server === "string" ? server : "NAME"} -n ${typeof namespace === "string" ? namespace : "<namespace>"}`;
  const peers = OGX_DISTRIBUTION_NAMES.includes(name)
    ? "a name of the peer's operator that llsd-hooks has no image for"
    : "a name llsd-hooks does not know";
  const image = `set spec.distribution.image (instead of name) to the image the server runs: kubectl get deploy ${where} -o jsonpath='{.spec.template.spec.containers[0].image}'`;
  const near = didYouMean(name, ours);
  return [
    fieldError(
      "spec.distribution.name",
      `${JSON.stringify(name)} is ${peers} (llsd-hooks has ${ours.join(", ")});${near ? `${near} or` : ""} ${image}`,
    ),
  ];
}
