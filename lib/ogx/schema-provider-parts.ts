/**
 * What every provider of the OGXServer model shares: the routed provider's `id`, `custom[]` and
 * provider ports (ogx-ai/ogx-k8s-operator api/v1beta1/provider_types.go at commit 1784464).
 */
import * as part from "./schema-parts";

const { str } = part;

export const idRule = part.notEmptyRule("id");
/** Provider ports are plain `*int` in Go: no int32 format. */
export const port = part.int({ minimum: 1, maximum: 65535 });
/** `RoutedProviderBase` + the type's own fields: `id` may be omitted, never empty. */
export const routed = (
  properties: part.Node,
  nonEmpty: string[] = [],
  extra: { required?: string[]; rules?: part.Node[] } = {},
): part.Node =>
  part.objNonEmpty({ id: str(), ...properties }, nonEmpty, { ...extra, rules: [...(extra.rules ?? []), idRule] });

export const CUSTOM_PROVIDER: part.Node = part.obj(
  {
    id: str(),
    type: part.nonEmptyStr,
    secretRefs: { type: "object", minProperties: 1, additionalProperties: part.keyRef },
    settings: part.freeJson,
  },
  {
    required: ["type"],
    rules: [
      {
        rule: "self.type.startsWith('remote::') || self.type.startsWith('inline::')",
        message:
          "type must have a 'remote::' or 'inline::' prefix (e.g., 'remote::llama-guard', 'inline::my-provider')",
      },
      idRule,
    ],
  },
);
export const custom = part.providerList(CUSTOM_PROVIDER);
