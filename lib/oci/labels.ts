/**
 * Where an image says its base config is (README.md, docs/registries.md), in this order:
 * `io.llamastack.config.base64`, then `io.llamastack.config.layer` + `.path`, then upstream's
 * `com.ogx.config.<file>` / `com.llamastack.config.<file>`. Pure.
 */
import { fail, ok, REASON, SHA256_DIGEST, type Descriptor, type Result } from "./types";

export const LABELS = Object.freeze({
  base64: "io.llamastack.config.base64",
  layer: "io.llamastack.config.layer",
  path: "io.llamastack.config.path",
});

/** Upstream prefixes, newest first: OGX (0.8+) renamed the pre-release `com.llamastack` ones. */
const UPSTREAM_PREFIXES = ["com.ogx", "com.llamastack"] as const;

/** Version labels, most specific first. `io.llamastack.config.version` is last: images have used it for the config schema ("2"). */
const VERSION_LABELS = [
  "com.ogx.distribution.version",
  "org.opencontainers.image.version",
  "io.llamastack.config.version",
] as const;

export const MISSING_CONFIG_LABELS_REASON = "MissingConfigLabels";

/** What the caller reports for a direct image reference without labels; a stable text users search for. */
export const MISSING_CONFIG_LABELS_MESSAGE =
  "Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.";

export type LabelKind = "base64" | "layer" | "upstream";

export type LabelPlan =
  | { readonly kind: "base64" | "upstream"; readonly config: string }
  | { readonly kind: "layer"; readonly layer: Descriptor; readonly path: string }
  | { readonly kind: "none" };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict base64 → UTF-8 text: Buffer.from would silently skip garbage and give a wrong config. */
export function decodeBase64Label(name: string, value: string, maxBytes: number): Result<string> {
  const compact = value.replace(/\s+/g, "");
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    return fail(REASON.invalidLabel, `label ${name} is not valid base64`);
  const bytes = Buffer.from(compact, "base64");
  if (bytes.length > maxBytes)
    return fail(REASON.tooLarge, `label ${name} decodes to more than the ${maxBytes}-byte limit`);
  return utf8(bytes, `label ${name}`);
}

export function utf8(bytes: Buffer, what: string): Result<string> {
  try {
    return ok(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return fail(REASON.invalidLabel, `${what} is not UTF-8 text`);
  }
}

/** `/app/config.yaml`, `./app/config.yaml` and `app/config.yaml` name the same tar entry. */
export function normalizeTarPath(path: string): string {
  return path.replace(/^(?:\.?\/)+/, "");
}

/** A digest of one of the image's layers, or a 0-based index into them (negative counts from the end). */
function findLayer(value: string, layers: readonly Descriptor[]): Descriptor | undefined {
  if (SHA256_DIGEST.test(value)) return layers.find((l) => l.digest === value);
  if (!/^-?\d+$/.test(value)) return undefined;
  const index = Number(value);
  return layers[index < 0 ? layers.length + index : index];
}

function layerPlan(labels: Readonly<Record<string, string>>, layers: readonly Descriptor[]): Result<LabelPlan> {
  const layerValue = labels[LABELS.layer]?.trim();
  const pathValue = labels[LABELS.path]?.trim();
  if (!layerValue || !pathValue) {
    const missing = layerValue ? LABELS.path : LABELS.layer;
    return fail(
      REASON.invalidLabel,
      `label ${missing} is missing or empty; ${LABELS.layer} and ${LABELS.path} are used together`,
    );
  }
  const layer = findLayer(layerValue, layers);
  if (layer === undefined)
    return fail(
      REASON.invalidLabel,
      `label ${LABELS.layer} ("${layerValue}") names no layer of this image (use a layer digest or index)`,
    );
  const path = normalizeTarPath(pathValue);
  if (path === "" || path.split("/").includes(".."))
    return fail(REASON.invalidLabel, `label ${LABELS.path} ("${pathValue}") is not a file path inside the layer`);
  return ok({ kind: "layer", layer, path });
}

function upstreamPlan(labels: Readonly<Record<string, string>>, maxBytes: number): Result<LabelPlan> {
  const seen: string[] = [];
  for (const prefix of UPSTREAM_PREFIXES) {
    const file = labels[`${prefix}.distribution.default-config`]?.trim() || "config.yaml";
    const name = `${prefix}.config.${file}`;
    const value = labels[name];
    if (value !== undefined) {
      const text = decodeBase64Label(name, value, maxBytes);
      return text.ok ? ok({ kind: "upstream", config: text.value }) : text;
    }
    if (Object.keys(labels).some((k) => k.startsWith(`${prefix}.config.`))) seen.push(name);
  }
  if (seen.length > 0)
    return fail(
      REASON.invalidLabel,
      `the image has ${seen.map((n) => n.replace(/config\..*$/, "config.*")).join(", ")} labels but not the default config's ${seen.join(" or ")}`,
    );
  return ok({ kind: "none" });
}

export function planFromLabels(
  labels: Readonly<Record<string, string>>,
  layers: readonly Descriptor[],
  maxBytes: number,
): Result<LabelPlan> {
  const base64 = labels[LABELS.base64];
  if (base64 !== undefined && base64.trim() !== "") {
    const text = decodeBase64Label(LABELS.base64, base64, maxBytes);
    return text.ok ? ok({ kind: "base64", config: text.value }) : text;
  }
  if (labels[LABELS.layer] !== undefined || labels[LABELS.path] !== undefined) return layerPlan(labels, layers);
  return upstreamPlan(labels, maxBytes);
}

/** The server version the image declares, if any (the caller maps it with releaseOfVersion). */
export function versionFromLabels(labels: Readonly<Record<string, string>>): string | undefined {
  for (const name of VERSION_LABELS) {
    const value = labels[name]?.trim();
    if (value) return value;
  }
  return undefined;
}
