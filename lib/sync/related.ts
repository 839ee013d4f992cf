/**
 * Check the spec's references against the Secrets and ConfigMaps Metacontroller sent in
 * `related`. Messages name the object, the key and the field path, never a value.
 */
import { fieldError, listOf, type FieldError } from "../errors";
import { isPlainObject } from "../json";
import { meant } from "../suggest";
import { KEYS, lookup, type KubeObject, type ObjectMap } from "../wire/metacontroller";
import type { References } from "./references";

/** The object's data keys, sorted: only for the message that a key is missing. */
function keysOf(object: KubeObject): string[] {
  const keys = (map: unknown): string[] => (isPlainObject(map) ? Object.keys(map) : []);
  return [...new Set([...keys(object.data), ...keys(object.binaryData)])].sort();
}

const hasOwnKey = (map: unknown, key: string): boolean => isPlainObject(map) && Object.hasOwn(map, key);

/** `key` is one of the object's data keys (a check per reference on every sync: no key list is built). */
function hasKey(object: KubeObject, key: string): boolean {
  return hasOwnKey(object.data, key) || hasOwnKey(object.binaryData, key);
}

export interface RelatedProblems {
  readonly secrets: readonly FieldError[];
  readonly configMaps: readonly FieldError[];
}

export function checkRelated(refs: References, related: ObjectMap | undefined, namespace: string): RelatedProblems {
  const secrets: FieldError[] = [];
  const secretOf = (name: string): KubeObject | undefined => lookup(related, KEYS.secret, namespace, name);
  for (const ref of refs.secretKeys) {
    const secret = secretOf(ref.name);
    if (!secret)
      secrets.push(
        fieldError(
          ref.path,
          `Secret not found: ${ref.name} (namespace ${namespace}); create it with the key "${ref.key}"`,
        ),
      );
    else if (!hasKey(secret, ref.key)) {
      secrets.push(
        fieldError(
          ref.path,
          `Secret ${ref.name} has no key "${ref.key}" (it has ${listOf(keysOf(secret))}); add the key or fix the reference`,
        ),
      );
    }
  }
  for (const wanted of refs.secrets) secrets.push(...missing("Secret", secretOf(wanted.name), wanted, namespace));
  const configMaps = refs.configMaps.flatMap((wanted) =>
    missing("ConfigMap", lookup(related, KEYS.configMap, namespace, wanted.name), wanted, namespace),
  );
  return { secrets, configMaps };
}

function missing(
  kind: string,
  object: KubeObject | undefined,
  wanted: { name: string; keys: readonly string[]; path: string },
  namespace: string,
): FieldError[] {
  if (!object)
    return [
      fieldError(
        wanted.path,
        `${kind} not found: ${wanted.name} (namespace ${namespace}); create it with ${listOf(wanted.keys)}`,
      ),
    ];
  const absent = wanted.keys.filter((k) => !hasKey(object, k));
  if (absent.length === 0) return [];
  const keys = keysOf(object);
  // One key missing beside a near miss (`config.yml` for `config.yaml`): the likely fix.
  const near = absent.length === 1 && absent[0] !== undefined ? meant(absent[0], keys, "") : "";
  return [
    fieldError(wanted.path, `${kind} ${wanted.name} has no key ${listOf(absent)} (it has ${listOf(keys)})${near}`),
  ];
}

/** The decoded value of a Secret key (only for deriving the Postgres parts; never logged). */
export function secretValue(
  related: ObjectMap | undefined,
  namespace: string,
  name: string,
  key: string,
): string | undefined {
  const data = lookup(related, KEYS.secret, namespace, name)?.data;
  // Only the one key is read: no copy of the Secret's data per value read.
  const encoded = isPlainObject(data) && Object.hasOwn(data, key) ? data[key] : undefined;
  return typeof encoded === "string" ? Buffer.from(encoded, "base64").toString("utf8") : undefined;
}
