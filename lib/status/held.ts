/**
 * The status of a CR whose edit `llamastack.io/hold-children` holds (lib/sync/hold.ts): the
 * fields that say what runs describe the children kept running, not the ones this sync would
 * have written and did not; `Ready` is False with reason `ChildrenHeld` (lib/status/summary.ts).
 */
/** What the kept children run, read from them (lib/sync/hold.ts). */
export interface HeldStatus {
  /** The Ready message: the annotation, what it holds, how to release it. */
  readonly message: string;
  /** The generated ConfigMap the kept Deployment mounts, with its `llamastack.io/config-hash`. */
  readonly configMap?: { readonly name: string; readonly hash?: string };
  /** Whether the kept Deployment mounts the ConfigMap this sync asked for (the held change is elsewhere). */
  readonly mountsDesiredConfig: boolean;
  /** The kept server container's image. */
  readonly image?: string;
}

/** What the previous status said of a ConfigMap, reused while it still runs. */
export interface PreviousConfigGeneration {
  readonly configMapName?: string;
  readonly generatedAt?: string;
  readonly providerCount?: number;
  readonly resourceCount?: number;
  readonly configVersion?: number;
}

/** What the previous status said of the config's source, reused while the same config runs. */
export interface PreviousResolvedConfig {
  readonly configSource?: string;
  readonly configHash?: string;
}

type Fields = { [k: string]: unknown };

/**
 * `configGeneration` of the ConfigMap that runs: the counts the previous status gave it, when
 * it named the same ConfigMap (they were counted when it was generated); otherwise its name alone.
 */
export function heldConfigGeneration(
  held: HeldStatus,
  previous: PreviousConfigGeneration | undefined,
  generatedAt: (name: string) => string,
): Fields | undefined {
  if (!held.configMap) return undefined;
  const configMapName = held.configMap.name;
  const out: Fields = { configMapName, generatedAt: generatedAt(configMapName) };
  if (previous?.configMapName !== configMapName) return out;
  for (const key of ["providerCount", "resourceCount", "configVersion"] as const)
    if (previous[key] !== undefined) out[key] = previous[key];
  return out;
}

/**
 * `resolvedDistribution` of what runs: the kept image (its digest only when it is the image
 * resolved), and the config's source and hash (`heldConfigFields`).
 */
export function heldResolvedDistribution(
  held: HeldStatus,
  desired: Fields | undefined,
  previous: PreviousResolvedConfig | undefined,
): Fields | undefined {
  const image = held.image ?? desired?.image;
  if (typeof image !== "string") return undefined;
  const out: Fields = { image };
  if (image === desired?.image && desired.digest !== undefined) out.digest = desired.digest;
  return Object.assign(out, heldConfigFields(held, desired, previous));
}

/**
 * The desired config's source and hash when the kept pods mount it; else the kept ConfigMap's
 * hash, with the source the previous status gave that hash (the ConfigMap does not record it).
 */
function heldConfigFields(
  held: HeldStatus,
  desired: Fields | undefined,
  previous: PreviousResolvedConfig | undefined,
): Fields {
  if (held.mountsDesiredConfig)
    return definedOnly({ configSource: desired?.configSource, configHash: desired?.configHash });
  const out: Fields = {};
  if (!held.configMap?.hash) return out;
  const configHash = `sha256:${held.configMap.hash}`;
  if (previous?.configHash === configHash && previous.configSource) out.configSource = previous.configSource;
  out.configHash = configHash;
  return out;
}

const definedOnly = (fields: Fields): Fields =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

/** The ConfigGenerated message of a held sync: generated, not applied, and what runs instead. */
export function heldConfigMessage(held: HeldStatus, generated: string): string {
  if (held.mountsDesiredConfig) return generated;
  const running = held.configMap ? `ConfigMap ${held.configMap.name} runs` : "the image's own config.yaml runs";
  return `${generated}; not applied while llamastack.io/hold-children holds it: ${running}`;
}
