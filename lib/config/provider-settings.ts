/**
 * A spec provider's `settings` and Secret keys checked against its type's config class on the
 * line (lib/config/shape-check.ts): every section, the OGX ones too. `settings` are deep-merged
 * over the config the hooks and the base write, so keys a class requires are left to the checks
 * of the merged entry (lib/config/overlay.ts), except inside lists, which replace. Types the line
 * does not register (a type of the user's own, an external provider) have no class here.
 */
import { child, fieldError, type FieldError } from "../errors";
import { SERVER_API } from "../api/apis";
import type { CanonicalSpec, ExternalProvider, Provider } from "../api/canonical";
import type { Release } from "../distributions/table";
import { didYouMean, closestNames } from "../suggest";
import { listOf } from "../errors";
import { configKey } from "./providers";
import { PROVIDER_SHAPES } from "./provider-shapes.generated";
import type { Shape, TagShapes } from "./provider-shapes-types";
import { RELEASE_APIS, schemaTagOf } from "../distributions/releases";
import { shapeProblems, type ShapeContext } from "./shape-check";
import { specProviderType } from "./spec-provider-type";
import { substitution, type ContainerEnv } from "./settings-env";
import type { ResolvedType } from "./provider-types";
import { laxValue } from "./lax-values";

export function shapesOf(release: Release): TagShapes {
  return PROVIDER_SHAPES[schemaTagOf(release)];
}

/** The type's config class on the line, or undefined when the line has none. */
export function configShape(release: Release, api: string, type: string): Shape | undefined {
  return shapesOf(release).providers[api]?.[type];
}

/** `remote::vllm on the 1.3 line`: the class, as messages name it. */
export const ownerOf = (type: string, release: Release): string => `${type} on the ${release} line`;

function contextOf(type: string, release: Release, env: ContainerEnv, partial: boolean): ShapeContext {
  return { defs: shapesOf(release).defs, owner: ownerOf(type, release), partial, substitute: substitution(env) };
}

function pathOf(root: string, steps: readonly (string | number)[]): string {
  return steps.reduce<string>((at, step) => child(at, step), root);
}

/** The keys a closed class declares; undefined when it takes any key. */
function declaredKeys(shape: Shape): string[] | undefined {
  return shape.additionalProperties === false ? Object.keys(shape.properties ?? {}) : undefined;
}

/**
 * A field that no string, number or boolean fits (a nested class, a list): a Secret's value never
 * does. Nor null: an empty Secret leaves `${env.X}` unset, and the server stops on that instead.
 */
function takesNoScalar(field: Shape, shapes: TagShapes): boolean {
  const s = field.$ref !== undefined ? (shapes.defs[field.$ref] ?? {}) : field;
  if (s.anyOf) return s.anyOf.every((b) => takesNoScalar(b, shapes));
  return s.type === "object" || s.type === "array" || s.type === "null";
}

/** Each Secret lands on a key of its own name (`secretRefs`, `{name, key}` fields): that key must be the class's. */
function secretKeyErrors(p: Provider, resolved: ResolvedType, shape: Shape, release: Release): FieldError[] {
  const errors: FieldError[] = [];
  const keys = declaredKeys(shape);
  for (const s of p.secrets) {
    if (s.field === "apiKey") continue; // the class's own credential key (providers.ts refuses a type without one)
    const key = configKey(s.field, resolved.info);
    const field = shape.properties?.[key];
    if (field === undefined && keys !== undefined) {
      const near = didYouMean(key, keys);
      const rest = near !== "" ? near : ` the nearest keys: ${listOf(closestNames(key, keys))}`;
      errors.push(
        fieldError(
          s.ref.path,
          `this Secret would land on config key "${key}", which ${ownerOf(resolved.type, release)} does not have (the server ignores it);${rest}`,
        ),
      );
    } else if (field !== undefined && takesNoScalar(field, shapesOf(release))) {
      errors.push(
        fieldError(
          s.ref.path,
          `${ownerOf(resolved.type, release)} takes a structure under "${key}", which a Secret's value cannot be; write it in settings`,
        ),
      );
    }
  }
  return errors;
}

/** What the provider's settings and Secret keys get wrong for its class on the line. */
export function providerSettingsErrors(
  p: Provider,
  resolved: ResolvedType,
  release: Release,
  env: ContainerEnv,
): FieldError[] {
  if (!resolved.known || p.api === "telemetry") return [];
  const shape = configShape(release, SERVER_API[p.api], resolved.type);
  if (shape === undefined) return [];
  const errors = secretKeyErrors(p, resolved, shape, release);
  if (p.settings === undefined) return errors;
  // A settings value that is not an object is the schema's to refuse; nothing to check inside it.
  if (laxValue("object", p.settings) === undefined) return errors;
  const root = child(p.path, "settings");
  const problems = shapeProblems(shape, p.settings, contextOf(resolved.type, release, env, true));
  return errors.concat(problems.map((pr) => fieldError(pathOf(root, pr.steps), pr.message)));
}

/** Every spec provider of an API the line serves, with the type it resolves to (as generation resolves it). */
export function specSettingsErrors(
  providers: readonly Provider[],
  release: Release,
  env: ContainerEnv,
  externals: readonly ExternalProvider[],
): FieldError[] {
  const served = RELEASE_APIS[release];
  const errors: FieldError[] = [];
  for (const p of providers) {
    if (p.api === "telemetry" || !served.includes(SERVER_API[p.api])) continue;
    if (p.settings === undefined && p.secrets.every((s) => s.field === "apiKey")) continue; // the usual case
    errors.push(...providerSettingsErrors(p, specProviderType(p, release, externals), release, env));
  }
  return errors;
}

/** The spec's providers, with the container env the spec gives. */
export function settingsErrors(spec: CanonicalSpec, release: Release, env: ContainerEnv): FieldError[] {
  return specSettingsErrors(spec.providers, release, env, spec.externalProviders);
}

/** A config of the user's own (overrideConfig): each enabled provider's config, whole, against its class. */
export function configProblems(
  entries: readonly { readonly at: string; readonly api: string; readonly type: string; readonly config: unknown }[],
  release: Release,
  env: ContainerEnv,
): FieldError[] {
  const out: FieldError[] = [];
  for (const e of entries) {
    const shape = configShape(release, e.api, e.type);
    if (shape === undefined) continue;
    const problems = shapeProblems(shape, e.config ?? {}, contextOf(e.type, release, env, false));
    for (const pr of problems) out.push(fieldError(pathOf(e.at, pr.steps), pr.message));
  }
  return out;
}
