/**
 * The shape of provider-shapes.generated.ts: each provider config class of a line, at every
 * depth, as the subset of JSON Schema its pydantic model exports (titles, descriptions and
 * defaults left out). A leaf module, so the data and its readers import no cycle.
 */
import type { SchemaTag } from "../distributions/releases";

export type ShapeValue = string | number | boolean | null;

export interface Shape {
  /** A JSON Schema type name: string, integer, number, boolean, null, object, array. */
  readonly type?: string;
  readonly properties?: { readonly [key: string]: Shape };
  readonly required?: readonly string[];
  /** false: a pydantic model (unknown keys refused); a shape: `dict[str, X]`; absent or true: open. */
  readonly additionalProperties?: boolean | Shape;
  readonly items?: Shape;
  /** `X | Y` (pydantic's `anyOf`; a discriminated `oneOf` too, whose branches cannot both match). */
  readonly anyOf?: readonly Shape[];
  /** The key whose value picks the branch of a discriminated union. */
  readonly discriminator?: string;
  readonly enum?: readonly ShapeValue[];
  readonly const?: ShapeValue;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  /** `uri`: pydantic's URL types; other formats (`password`, `path`) are any string. */
  readonly format?: "uri";
  /** A class shared by several (the tag's `defs`), by name. */
  readonly $ref?: string;
}

export interface TagShapes {
  /** Nested classes, by their class name (`NetworkConfig`; a second class of one name gets `~2`). */
  readonly defs: { readonly [name: string]: Shape };
  /** Each provider type's config class, by API and type. */
  readonly providers: { readonly [api: string]: { readonly [type: string]: Shape } };
}

export type ProviderShapesData = { readonly [tag in SchemaTag]: TagShapes };
