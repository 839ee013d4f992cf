/**
 * `kubectl explain llsd.spec.providers.inference` shows the provider object: the node stays
 * untyped and preserve-unknown (one object or a list), and its fields are described, typed and
 * nothing more, so the apiserver treats the one form as it treats the list (lib/crd/described.ts).
 */
import { PROVIDER_APIS } from "../../lib/api/apis";
import { toStructural, VALIDATIONS, PRESERVE_UNKNOWN, type JsonSchemaProps } from "../../lib/crd/structural";
import { VALUE_KEYWORDS } from "../../lib/crd/structural-check";
import { committedCrd, structuralErrors, versionSchema } from "./crd-helpers";

const schema = versionSchema(committedCrd(), "v1alpha2");
type Props = { readonly [k: string]: JsonSchemaProps };
const propsOf = (node: JsonSchemaProps | undefined): Props => (node?.properties ?? {}) as Props;
const providers = propsOf(propsOf(propsOf(schema).spec).providers);

/** Every node below `node`, with its path. */
function below(node: JsonSchemaProps, path: string): [string, JsonSchemaProps][] {
  const children: [string, unknown][] = [
    ...Object.entries(propsOf(node)).map(([k, s]): [string, unknown] => [`${path}.${k}`, s]),
    [`${path}[*]`, node.items],
    [`${path}{*}`, node.additionalProperties],
  ];
  return children.flatMap(([p, s]) =>
    typeof s === "object" && s !== null
      ? [[p, s as JsonSchemaProps] as [string, JsonSchemaProps], ...below(s as JsonSchemaProps, p)]
      : [],
  );
}

describe("spec.providers.<api> in the CRD", () => {
  it.each(PROVIDER_APIS)(
    "%s: stays untyped and preserve-unknown, with the provider object's fields described",
    (api) => {
      const node = providers[api];
      expect([node?.type, node?.[PRESERVE_UNKNOWN]]).toEqual([undefined, true]);
      expect(node?.description).toMatch(/one object or a list|One provider object, or a list/);
      const fields = propsOf(node);
      expect(Object.keys(fields)).toEqual(["apiKey", "endpoint", "id", "provider", "secretRefs", "settings"]);
      for (const [name, field] of Object.entries(fields)) {
        expect([name, typeof field.description, typeof field.type]).toEqual([name, "string", "string"]);
      }
    },
  );

  it.each(PROVIDER_APIS)("%s: what it describes requires, defaults, checks and prunes nothing", (api) => {
    for (const [path, node] of below(providers[api] ?? {}, api)) {
      const acting = ["required", "default", VALIDATIONS, ...VALUE_KEYWORDS].filter((k) => node[k] !== undefined);
      expect({ path, acting }).toEqual({ path, acting: [] });
      if (node.type === "object") expect({ path, preserve: node[PRESERVE_UNKNOWN] }).toEqual({ path, preserve: true });
    }
  });

  it("takes the one form and the list alike, unknown fields inside a Secret reference included", () => {
    const provider = { provider: "vllm", endpoint: "http://v:8000", apiKey: { name: "s", key: "k", extra: 1 } };
    const cr = (inference: object) => ({
      apiVersion: "llamastack.io/v1alpha2",
      kind: "LlamaStackDistribution",
      metadata: { name: "demo" },
      spec: { distribution: { name: "starter" }, providers: { inference } },
    });
    expect(structuralErrors(schema, cr(provider))).toEqual([]);
    expect(structuralErrors(schema, cr([{ id: "a", ...provider }]))).toEqual([]);
  });
});

describe("toStructural of one object or a list of it", () => {
  const item = {
    type: "object",
    description: "an item",
    properties: {
      n: { type: "string", description: "n", minLength: 1 },
      o: { type: "object", description: "o", properties: { p: { type: "integer", default: 1 } } },
    },
    required: ["n"],
    additionalProperties: { type: "string" },
  };

  it("keeps the value as written and describes the object's fields, typed and described only", () => {
    expect(toStructural({ description: "one or many", oneOf: [item, { type: "array", items: item }] }, "x")).toEqual({
      description: "one or many",
      [PRESERVE_UNKNOWN]: true,
      properties: {
        n: { type: "string", description: "n" },
        o: { type: "object", description: "o", properties: { p: { type: "integer" } }, [PRESERVE_UNKNOWN]: true },
      },
    });
  });

  it("describes nothing when the list holds something else", () => {
    const other = { ...item, properties: { m: { type: "string" } } };
    expect(toStructural({ description: "d", oneOf: [item, { type: "array", items: other }] }, "x")).toEqual({
      description: "d",
      [PRESERVE_UNKNOWN]: true,
    });
  });
});
