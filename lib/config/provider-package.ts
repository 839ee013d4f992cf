/**
 * An external provider image's `/lls-provider/lls-provider-spec.yaml`
 * (docs/external-providers.md): parsed and checked, with errors that name the image and the
 * field (and the YAML line for a parse error). Pure: the text was read from the image before.
 */
import { SECTION_OF_API } from "../api/schema-v1alpha2";
import { isPlainObject } from "../json";
import { parseYaml } from "./yaml";

/** Where the metadata lives in a provider image, and where its wheels are looked up from. */
export const PROVIDER_SPEC_FILE = "/lls-provider/lls-provider-spec.yaml";
export const PROVIDER_DIR = "/lls-provider";

export interface ProviderPackage {
  /** Python module the server imports (`module:` in config.yaml); a `==version` suffix is kept (the server strips it). */
  readonly packageName: string;
  /** `remote::x` or `inline::x`: the entry's `provider_type`. */
  readonly providerType: string;
  /** The server's (snake_case) API name. */
  readonly api: string;
  /** Absolute paths in the provider image: the provider's wheel (or directory of wheels) first, then its dependency wheels. */
  readonly wheels: readonly string[];
  readonly name?: string;
  readonly version?: string;
}

export type PackageResult =
  { readonly ok: true; readonly value: ProviderPackage } | { readonly ok: false; readonly message: string };

const PROVIDER_TYPE = /^(remote|inline)::[a-z0-9-]+$/;
const MODULE = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*(==[A-Za-z0-9._+!-]+)?$/;

/** A path in the provider image: relative ones are under /lls-provider; nothing may leave it. */
function wheelPath(value: unknown, field: string): string | { problem: string } {
  if (typeof value !== "string" || value.trim() === "")
    return {
      problem: `${field} must be a path to a wheel under ${PROVIDER_DIR}/ (e.g. packages/my_provider-1.0-py3-none-any.whl)`,
    };
  const absolute = value.startsWith("/") ? value : `${PROVIDER_DIR}/${value.replace(/^\.\//, "")}`;
  if (!absolute.startsWith(`${PROVIDER_DIR}/`) || absolute.split("/").includes("..") || /[\n\r\0]/.test(absolute)) {
    return { problem: `${field} "${value}" must stay under ${PROVIDER_DIR}/` };
  }
  return absolute;
}

function wheelsOf(spec: { [k: string]: unknown }): string[] | { problem: string } {
  const deps = spec.dependencyWheels ?? [];
  if (!Array.isArray(deps)) return { problem: "spec.dependencyWheels must be a list of wheel paths" };
  const paths = [
    wheelPath(spec.wheelPath, "spec.wheelPath"),
    ...deps.map((d, i) => wheelPath(d, `spec.dependencyWheels[${i}]`)),
  ];
  const problem = paths.find((p): p is { problem: string } => typeof p !== "string");
  return problem ?? paths.filter((p): p is string => typeof p === "string");
}

/** A value as the message shows it: JSON, an absent one as null. */
const shown = (value: unknown): string => JSON.stringify(value ?? null);

function headerProblem(doc: { [k: string]: unknown }): string | undefined {
  if (doc.apiVersion !== "llamastack.io/v1alpha1")
    return `apiVersion must be llamastack.io/v1alpha1 (got ${shown(doc.apiVersion)})`;
  if (doc.kind !== "ProviderPackage") return `kind must be ProviderPackage (got ${shown(doc.kind)})`;
  return undefined;
}

type SpecFields = Pick<ProviderPackage, "packageName" | "providerType" | "api">;

/** The spec's fields, checked; a string says what is wrong. */
function specFields(spec: { [k: string]: unknown }): SpecFields | string {
  const { packageName, providerType, api } = spec;
  if (typeof packageName !== "string" || !MODULE.test(packageName)) {
    return `spec.packageName must be an importable Python module path such as my_provider or my_org.provider (got ${shown(packageName)})`;
  }
  if (typeof providerType !== "string" || !PROVIDER_TYPE.test(providerType)) {
    return `spec.providerType must match (remote|inline)::[a-z0-9-]+, e.g. remote::my-provider (got ${shown(providerType)})`;
  }
  if (typeof api !== "string" || !SECTION_OF_API.has(api)) {
    return `spec.api must be one of ${[...SECTION_OF_API.keys()].join(", ")} (got ${shown(api)})`;
  }
  return { packageName, providerType, api };
}

/** The metadata document, checked. Messages start with what is wrong in which image. */
export function parseProviderPackage(text: string, image: string): PackageResult {
  const invalid = (why: string): PackageResult => ({
    ok: false,
    message: `Invalid ${PROVIDER_SPEC_FILE} in image ${image}: ${why}`,
  });
  const parsed = parseYaml(text);
  if (!parsed.ok) return invalid(parsed.message);
  const doc = parsed.value;
  if (!isPlainObject(doc)) return invalid("expected a ProviderPackage document (apiVersion, kind, metadata, spec)");
  const spec = isPlainObject(doc.spec) ? doc.spec : {};
  const header = headerProblem(doc);
  if (header !== undefined) return invalid(header);
  const fields = specFields(spec);
  if (typeof fields === "string") return invalid(fields);
  const wheels = wheelsOf(spec);
  if (!Array.isArray(wheels)) return invalid(wheels.problem);
  const meta = isPlainObject(doc.metadata) ? doc.metadata : {};
  return {
    ok: true,
    value: {
      ...fields,
      wheels,
      ...(typeof meta.name === "string" ? { name: meta.name } : {}),
      ...(typeof meta.version === "string" ? { version: meta.version } : {}),
    },
  };
}
