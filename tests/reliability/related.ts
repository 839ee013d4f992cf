/** The objects a valid spec (arbitraries.ts) refers to, present and well-formed, for the property tests that sync it. */
import type { KubeObject } from "../../lib/wire/metacontroller";
import { aConfigMap } from "../sync-builders";
import { secretOf, secretsFor, valueFor } from "./support";

type CaBundle = { configMapName: string; configMapKeys?: string[] };

/** The CA ConfigMaps the spec names, each with the keys it lists (one or a list of them). */
function caBundlesOf(spec: object, caPem: string): KubeObject[] {
  const given = (spec as { networking?: { tls?: { caBundle?: CaBundle | CaBundle[] } } }).networking?.tls?.caBundle;
  const bundles = given === undefined ? [] : Array.isArray(given) ? given : [given];
  return bundles.map((b) =>
    aConfigMap(b.configMapName, Object.fromEntries((b.configMapKeys ?? ["ca-bundle.crt"]).map((k) => [k, caPem]))),
  );
}

const keyOf = (spec: object, field: "overrideConfig" | "baseConfig"): string =>
  (spec as { [f in typeof field]?: { key?: string } })[field]?.key ?? "config.yaml";

export interface RelatedTexts {
  /** The CA certificate every CA bundle key holds. */
  readonly caPem: string;
  /** overrideConfig's ConfigMap `my-config`. */
  readonly override: string;
  /** baseConfig's ConfigMap `my-base`: a base of the line the spec runs (another line's is refused). */
  readonly base: string;
}

/** Every object the spec refers to. Only the key the spec names: a key read from the wrong place fails the sync. */
export function relatedFor(spec: object, texts: RelatedTexts): KubeObject[] {
  return [
    ...secretsFor(spec, (name, key, path) => valueFor(path, `value-of-${name}-${key}`)),
    ...caBundlesOf(spec, texts.caPem),
    aConfigMap("my-config", { [keyOf(spec, "overrideConfig")]: texts.override }),
    aConfigMap("my-base", { [keyOf(spec, "baseConfig")]: texts.base }),
    {
      ...secretOf("llama-tls", { "tls.crt": "-----BEGIN CERTIFICATE-----", "tls.key": "-----BEGIN PRIVATE KEY-----" }),
      type: "kubernetes.io/tls",
    },
  ];
}
