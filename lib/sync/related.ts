/**
 * Check the spec's references against the Secrets and ConfigMaps Metacontroller sent in
 * `related`. Messages name the object, the key and the field path, never a value.
 */
import { fieldError, listOf, type FieldError } from "../errors";
import { isPlainObject } from "../conversion/paths";
import { KEYS, lookup, stringEntries, type KubeObject, type ObjectMap } from "../wire/metacontroller";
import type { References } from "./references";

function keysOf(object: KubeObject | undefined): string[] {
  if (!object) return [];
  const keys = (map: unknown): string[] => (isPlainObject(map) ? Object.keys(map) : []);
  return [...new Set([...keys(object.data), ...keys(object.binaryData)])].sort();
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
    else if (!keysOf(secret).includes(ref.key)) {
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
  const absent = wanted.keys.filter((k) => !keysOf(object).includes(k));
  return absent.length === 0
    ? []
    : [
        fieldError(
          wanted.path,
          `${kind} ${wanted.name} has no key ${listOf(absent)} (it has ${listOf(keysOf(object))})`,
        ),
      ];
}

/** The decoded value of a Secret key (only for deriving the Postgres parts; never logged). */
export function secretValue(
  related: ObjectMap | undefined,
  namespace: string,
  name: string,
  key: string,
): string | undefined {
  const secret = lookup(related, KEYS.secret, namespace, name);
  const data = stringEntries(secret?.data);
  const encoded = Object.hasOwn(data, key) ? data[key] : undefined;
  return encoded === undefined ? undefined : Buffer.from(encoded, "base64").toString("utf8");
}

/** ConfigMap data by name, for the overrideConfig check. */
export function configMapData(related: ObjectMap | undefined): { [name: string]: { [key: string]: string } } {
  const out: { [name: string]: { [key: string]: string } } = {};
  for (const object of Object.values(related?.[KEYS.configMap] ?? {})) {
    out[object.metadata.name] = { ...stringEntries(object.data) };
  }
  return out;
}
