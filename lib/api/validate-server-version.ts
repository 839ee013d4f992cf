/**
 * OGX 1.0 and 1.1 images carry no config labels, and a config generated for them from the
 * bundled 1.x base names what those servers do not have (`remote::meta`, the reranker, the
 * `skills` API): they refuse it at start-up. On the 1.x line the hooks generate for 1.2 and later
 * (1.2 images carry their own config in labels). A 1.0 or 1.1 image still runs its own config,
 * or one the user writes for it (overrideConfig): only generating is refused, up front.
 */
import type { CanonicalSpec } from "./canonical";
import { fieldError, type FieldError } from "../errors";
import { configSource } from "./config-source";
import { parseImageRef } from "../distributions/image-ref";
import { knownBelow } from "../distributions/detect";

/** The oldest 1.x release the hooks generate configs for, and the first 1.x release. */
const FIRST_GENERATED_1X = "1.2.0";
const FIRST_1X = "1.0.0";

export function unservedVersionErrors(spec: CanonicalSpec): FieldError[] {
  if (spec.distribution.kind !== "image" || configSource(spec) !== "generated") return [];
  const image = spec.distribution.image;
  // The tag's version, read as the line choice reads it (lib/distributions/detect.ts).
  if (!knownBelow({ image }, FIRST_GENERATED_1X) || knownBelow({ image }, FIRST_1X)) return [];
  const tag = parseImageRef(image)?.tag ?? "";
  return [
    fieldError(
      "spec.distribution.image",
      `${image} runs OGX ${tag}, and the hooks generate configs for OGX 1.2 and later, 0.8.x and 0.7.x: a server of that release refuses the config they would write (providers and APIs it does not have). ` +
        "Use an image of OGX 1.2 or later (or distribution.name), or let the image run its own config (no providers, resources, storage, disabled, TLS, external providers or registryRefreshIntervalSeconds), or write one for it in overrideConfig",
    ),
  ];
}
