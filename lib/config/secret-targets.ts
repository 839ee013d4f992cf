/**
 * Where each Secret-backed variable lands in a generated config, and what kinds of value the
 * release's config class accepts there: the sync hook checks the Secret's value against it
 * before the server sees it (lib/sync/secret-values.ts).
 */
import type { Release } from "../distributions/table";
import { isMap, type ConfigDoc } from "./doc";
import { envRef } from "./env-names";
import { fieldsOf, typeFields, type Kinds } from "./provider-fields";

export interface SecretTarget {
  readonly name: string;
  /** Config path, e.g. `providers.inference[2].config.api_key`. */
  readonly at: string;
  /** The config key and its owner as users know them (`remote::vllm api_token`). */
  readonly field: string;
  /** Kinds the key accepts; absent when the release does not describe the owner (external types). */
  readonly kinds?: Kinds;
}

/** A provider's or storage backend's config: where it sits, what users call it, and the kinds its keys take. */
interface ConfigOwner {
  readonly at: string;
  readonly owner: string;
  readonly kindsOf: (key: string) => Kinds | undefined;
}

function targetsIn(config: unknown, names: ReadonlySet<string>, { at, owner, kindsOf }: ConfigOwner): SecretTarget[] {
  if (!isMap(config)) return [];
  return Object.entries(config).flatMap(([key, value]) => {
    const name = typeof value === "string" ? /^\$\{env\.([A-Z0-9_]+)\}$/.exec(value)?.[1] : undefined;
    if (name === undefined || !names.has(name) || value !== envRef(name)) return [];
    const kinds = kindsOf(key);
    return [{ name, at: `${at}.${key}`, field: `${owner} ${key}`, ...(kinds !== undefined ? { kinds } : {}) }];
  });
}

/** Every whole-value `${env.NAME}` of `names` in provider configs and storage backends. */
export function secretTargets(doc: ConfigDoc, names: ReadonlySet<string>, release: Release): SecretTarget[] {
  const providers = Object.entries(doc.providers).flatMap(([api, list]) =>
    (list ?? []).flatMap((p, i) =>
      targetsIn(p.config, names, {
        at: `providers.${api}[${i}].config`,
        owner: p.provider_type,
        kindsOf: (key) => typeFields(release, api, p.provider_type)?.fields[key],
      }),
    ),
  );
  const backends = isMap(doc.storage) && isMap(doc.storage.backends) ? Object.entries(doc.storage.backends) : [];
  const storage = backends.flatMap(([id, backend]) => {
    const type = isMap(backend) && typeof backend.type === "string" ? backend.type : "";
    return targetsIn(backend, names, {
      at: `storage.backends.${id}`,
      owner: `storage backend ${type}`,
      kindsOf: (key) => fieldsOf(release).backends[type]?.[key],
    });
  });
  return [...providers, ...storage];
}
