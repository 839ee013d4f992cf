/**
 * Where each Secret-backed variable lands in a generated config, and what kinds of value the
 * release's config class accepts there: the sync hook checks the Secret's value against it
 * before the server sees it (lib/sync/secret-values.ts).
 */
import type { Release } from "../distributions/table";
import { perFrozen } from "../remembered";
import { type ConfigDoc } from "./doc";
import { isPlainObject } from "../json";
import { fieldsOf, typeFields, type Kinds } from "./provider-fields";

export interface SecretTarget {
  readonly name: string;
  /** Config path, e.g. `providers.inference[2].config.api_key`. */
  readonly at: string;
  /** The config key and its owner as users know them (`remote::vllm api_token`). */
  readonly field: string;
  /** Kinds the key accepts; absent when the release does not describe the owner (external types). */
  readonly kinds?: Kinds;
  /** `${env.NAME:=default}`: an empty value falls back to the default instead of stopping the server. */
  readonly defaulted?: true;
}

/** A provider's or storage backend's config: where it sits, what users call it, and the kinds its keys take. */
interface ConfigOwner {
  readonly at: string;
  readonly owner: string;
  /** Config key → kinds it accepts; absent when the release does not describe the owner. */
  readonly fields: { readonly [key: string]: Kinds | undefined } | undefined;
}

/** A config key whose whole value is one `${env.NAME}` or `${env.NAME:=default}`: a set value arrives converted. */
interface WholeRef {
  readonly key: string;
  readonly name: string;
  readonly defaulted: boolean;
}

const WHOLE_REF = /^\$\{env\.([A-Z0-9_]+)(:=[^}]*)?\}$/;

/** Base configs are frozen and shared (lib/config/base.ts): their whole-value references are found once. */
const wholeRefs = perFrozen((config: { readonly [key: string]: unknown }): readonly WholeRef[] => {
  const refs: WholeRef[] = [];
  for (const key of Object.keys(config)) {
    const value = config[key];
    const match = typeof value === "string" ? WHOLE_REF.exec(value) : null;
    if (match?.[1] !== undefined) refs.push({ key, name: match[1], defaulted: match[2] !== undefined });
  }
  return refs;
});

/** The references in `config` to variables in `names`. */
function matched(config: unknown, names: ReadonlySet<string>): readonly WholeRef[] {
  return isPlainObject(config) ? wholeRefs(config).filter((ref) => names.has(ref.name)) : [];
}

function addTargets(refs: readonly WholeRef[], { at, owner, fields }: ConfigOwner, out: SecretTarget[]): void {
  for (const { key, name, defaulted } of refs) {
    const kinds = fields?.[key];
    const target: { -readonly [K in keyof SecretTarget]: SecretTarget[K] } = {
      name,
      at: `${at}.${key}`,
      field: `${owner} ${key}`,
    };
    if (kinds !== undefined) target.kinds = kinds;
    if (defaulted) target.defaulted = true;
    out.push(target);
  }
}

function providerTargets(doc: ConfigDoc, names: ReadonlySet<string>, release: Release, out: SecretTarget[]): void {
  for (const api of Object.keys(doc.providers)) {
    const list = doc.providers[api] ?? [];
    for (let i = 0; i < list.length; i++) {
      const p = list[i]!;
      const refs = matched(p.config, names);
      if (refs.length === 0) continue;
      const fields = typeFields(release, api, p.provider_type)?.fields;
      addTargets(refs, { at: `providers.${api}[${i}].config`, owner: p.provider_type, fields }, out);
    }
  }
}

function backendTargets(doc: ConfigDoc, names: ReadonlySet<string>, release: Release, out: SecretTarget[]): void {
  const backends = isPlainObject(doc.storage) && isPlainObject(doc.storage.backends) ? doc.storage.backends : {};
  for (const id of Object.keys(backends)) {
    const backend = backends[id];
    const refs = matched(backend, names);
    if (refs.length === 0) continue;
    const type = isPlainObject(backend) && typeof backend.type === "string" ? backend.type : "";
    const fields = fieldsOf(release).backends[type];
    addTargets(refs, { at: `storage.backends.${id}`, owner: `storage backend ${type}`, fields }, out);
  }
}

/** Every whole-value `${env.NAME}` of `names` in provider configs and storage backends. */
export function secretTargets(doc: ConfigDoc, names: ReadonlySet<string>, release: Release): SecretTarget[] {
  const out: SecretTarget[] = [];
  providerTargets(doc, names, release, out);
  backendTargets(doc, names, release, out);
  return out;
}
