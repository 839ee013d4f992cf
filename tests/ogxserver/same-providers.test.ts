/**
 * Issue 47 part 2: an OGXServer converted to an LLSD runs the providers and models the peer's
 * generated config would have run. For every OGXServer of these tests that generates a config
 * (objects.yaml and the takeover cases; an overrideConfig is mounted as is on both sides), the
 * set of `(api, provider_id, provider_type)` the server serves and the models registered, by the
 * peer's generation (peer-config.ts, a model of its Go code) and by ours from the converted LLSD,
 * on the same base config: the starter's at 1.3.0.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { normalize } from "../../lib/api/normalize";
import type { LlsdSpecV1alpha2 } from "../../lib/api/v1alpha2";
import { generate } from "../../lib/config/generate";
import { bundledBaseConfig } from "../../lib/distributions/bundled";
import { fromOgxServer } from "../../lib/ogx/convert";
import { isPlainObject, type JsonMap } from "../../lib/json";
import { ok } from "./helpers";
import { ogxObjects } from "./objects";
import { CASES } from "./takeover-cases";
import { PEER_TYPE_ON_SERVER, peerConfig, type BaseConfig, type Entry } from "./peer-config";

const BASE = bundledBaseConfig("starter", "1.3") ?? "";
const baseDoc = parse(BASE) as BaseConfig;

const generating = [
  ...ogxObjects(),
  ...CASES.map(([name, c]) => ({
    name: `takeover ${name}`,
    object: {
      apiVersion: "ogx.io/v1beta1",
      kind: "OGXServer",
      metadata: { name: "chat" },
      spec: c.ogxServer,
    },
  })),
].filter((o) => isPlainObject(o.object.spec) && o.object.spec.overrideConfig === undefined);

interface Served {
  readonly providers: string[];
  readonly models: string[];
}

function served(
  apis: readonly string[],
  providers: { readonly [api: string]: readonly Entry[] },
  models: readonly JsonMap[],
): Served {
  const rows = apis.flatMap((api) =>
    (providers[api] ?? []).map(
      (p) => `${api} ${p.provider_id} ${PEER_TYPE_ON_SERVER[p.provider_type] ?? p.provider_type}`,
    ),
  );
  return {
    providers: rows.sort(),
    models: models.map((m) => `${String(m.model_id)} on ${String(m.provider_id)}`).sort(),
  };
}

/** Ours: the converted LLSD's config. Its workload is left out: one pod or many, the providers are the same (the multi-replica rule is convert.test.ts's). */
function ours(object: JsonMap, edit: (spec: JsonMap) => JsonMap = (s) => s): Served {
  const { workload: _w, ...spec } = ok(fromOgxServer(object)).spec as JsonMap;
  const result = generate(normalize(edit(spec) as unknown as LlsdSpecV1alpha2), BASE, "1.3", { name: "x" });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  const config = parse(result.configYaml) as BaseConfig;
  return served(config.apis ?? [], config.providers, [...(config.registered_resources?.models ?? [])]);
}

function peer(object: JsonMap): Served {
  const config = peerConfig(object.spec as JsonMap, baseDoc);
  return served(config.apis, config.providers, config.models);
}

/**
 * Objects whose converted LLSD ours refuses on this base, and why: there is no config to compare.
 * The peer filters `apis` only; its server, given skills without files, does not start either.
 */
const REFUSED: { readonly [name: string]: RegExp } = {
  "takeover autoscaling-pdb": /cannot disable files: the skills API needs it/,
};

describe("the converted LLSD runs the providers and models the peer ran", () => {
  it.each(generating.filter((o) => !(o.name in REFUSED)).map((o) => [o.name, o.object] as const))(
    "%s",
    (_name, object) => {
      expect(ours(object)).toEqual(peer(object));
    },
  );

  it.each(Object.entries(REFUSED))("%s is refused by ours on the starter base", (name, why) => {
    const object = generating.find((o) => o.name === name)?.object ?? {};
    expect(() => ours(object)).toThrow(why);
  });

  it("would not without spec.replace: the base's other providers and models stay (the comparison sees it)", () => {
    const production = generating.find((o) => o.name === "production")?.object ?? {};
    const { replace: _r, ...overlaid } = ours(production, (spec) => {
      const { replace: _x, ...rest } = spec;
      return rest;
    }) as Served & { replace?: unknown };
    expect(overlaid.providers).not.toEqual(peer(production).providers);
    expect(overlaid.providers).toContain("vector_io faiss inline::faiss");
  });
});

describe("the peer's types the 1.3 server lacks, and the server's types the conversion writes", () => {
  const registry = (
    JSON.parse(readFileSync(join(__dirname, "../fixtures/server-schemas/v1.3.0/providers/index.json"), "utf8")) as {
      provider_type: string;
    }[]
  ).map((e) => e.provider_type);

  it.each(Object.entries(PEER_TYPE_ON_SERVER))("%s is not in the 1.3 registry; %s is", (peerType, serverType) => {
    expect(registry).not.toContain(peerType);
    expect(registry).toContain(serverType);
  });
});
