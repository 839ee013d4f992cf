/**
 * Secret references checked against the Secrets in the same input (`llsd validate`, `render`,
 * `request`): a Secret of the input that lacks the key, or a name one typo away from a Secret of
 * the input, is a problem with the field path and the name meant. A Secret that is not in the
 * input, nor close to one that is, is not checked: it may well be in the cluster.
 */
import { normalizedSpec } from "../api/validate";
import { AS_STORED, V1ALPHA1_API } from "../config/check-object";
import { userSecretEnv } from "../config/user-env";
import { isPlainObject, own, type JsonMap } from "../json";
import { toHub } from "../conversion/v1alpha1";
import { fieldError, listOf, type FieldError } from "../errors";
import { didYouMean, meant } from "../suggest";
import { referencesOf } from "../sync/references";

/** A `v1 Secret` object of the input. */
export type InputSecret = JsonMap;

/** One reference: the Secret, the keys it must hold, and the field that names it. */
interface Reference {
  readonly name: string;
  readonly keys: readonly string[];
  readonly path: string;
}

const text = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

/** Every problem of `object`'s Secret references that the input's Secrets show. */
export function secretReferenceProblems(object: JsonMap, secrets: readonly InputSecret[]): FieldError[] {
  if (secrets.length === 0) return [];
  const stored = object.apiVersion === V1ALPHA1_API ? toHub(object) : { ok: true as const, object };
  const spec = stored.ok ? normalizedSpec(own(stored.object, "spec")) : undefined;
  if (spec === undefined) return []; // the schema's verdict says why
  const namespace = text(own(object.metadata, "namespace"));
  const visible = secrets.filter((s) => sameNamespace(text(own(s.metadata, "namespace")), namespace));
  const byName = new Map(visible.flatMap((s) => (text(own(s.metadata, "name")) ? [[nameOf(s), s] as const] : [])));
  const refs = referencesOf(spec);
  const all: Reference[] = [
    ...refs.secretKeys.map((r) => ({ name: r.name, keys: [r.key], path: r.path })),
    ...refs.secrets,
    ...userSecretEnv(spec).map((e) => ({ name: e.secretName, keys: [e.secretKey], path: e.path })),
  ];
  const suffix = object.apiVersion === V1ALPHA1_API ? AS_STORED : "";
  return all.flatMap((ref) => problemsOf(ref, byName)).map((e) => fieldError(e.path, `${e.message}${suffix}`));
}

/** A namespace left out (kubectl apply -n decides) matches any. */
const sameNamespace = (a: string | undefined, b: string | undefined): boolean =>
  a === undefined || b === undefined || a === b;

const nameOf = (secret: InputSecret): string => text(own(secret.metadata, "name")) ?? "";

function problemsOf(ref: Reference, byName: ReadonlyMap<string, InputSecret>): FieldError[] {
  const secret = byName.get(ref.name);
  if (secret === undefined) {
    // Not in the input and no typo of a Secret that is: the cluster may have it.
    if (didYouMean(ref.name, byName.keys()) === "") return [];
    return [fieldError(ref.path, `Secret ${ref.name} is not in the input${meant(ref.name, byName.keys(), "")}`)];
  }
  const keys = keysOf(secret);
  return ref.keys
    .filter((key) => !keys.includes(key))
    .map((key) =>
      fieldError(
        ref.path,
        `Secret ${ref.name} has no key "${key}" (it has ${listOf(keys)})${meant(key, keys, "; add the key to the Secret or fix the reference")}`,
      ),
    );
}

/** The keys a Secret holds once stored: `data` and `stringData` together. */
function keysOf(secret: InputSecret): string[] {
  const keys = (map: unknown): string[] => (isPlainObject(map) ? Object.keys(map) : []);
  return [...new Set([...keys(secret.data), ...keys(secret.stringData)])].sort();
}
