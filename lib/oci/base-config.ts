/** One image → its base config, uncached: config blob labels, then whatever they point at. */
import type { Call, RegistryClient, ResolvedImage } from "./client";
import { planFromLabels, versionFromLabels, type LabelKind } from "./labels";
import type { RegistryRef } from "./reference";
import { ok, type Result } from "./types";

export type BaseFromImage =
  | { readonly kind: "found"; readonly config: string; readonly labelKind: LabelKind; readonly version?: string }
  | { readonly kind: "no-labels" };

export async function readBaseFromImage(
  client: RegistryClient,
  ref: RegistryRef,
  image: ResolvedImage,
  call: Call,
): Promise<Result<BaseFromImage>> {
  const labels = await client.getLabels(ref, image, call);
  if (!labels.ok) return labels;
  const plan = planFromLabels(labels.value, image.manifest.layers, client.limits.fileBytes);
  if (!plan.ok) return plan;
  const version = versionFromLabels(labels.value);
  const found = (config: string, labelKind: LabelKind): Result<BaseFromImage> =>
    ok({ kind: "found", config, labelKind, ...(version === undefined ? {} : { version }) });
  switch (plan.value.kind) {
    case "none":
      return ok({ kind: "no-labels" });
    case "base64":
    case "upstream":
      return found(plan.value.config, plan.value.kind);
    case "layer": {
      const file = await client.extractFile(ref, plan.value.layer, call, { path: plan.value.path });
      return file.ok ? found(file.value, "layer") : file;
    }
  }
}
