/**
 * `spec.workload`, both ways: the same fields under the same names, except the volume's mount
 * path (the defaults differ: `/.llama` here, `/.ogx` there, so it is always written), a PDB
 * written `{}` here (= `maxUnavailable: 1`), and the overrides the peer lacks (`ONLY_HERE`).
 */
import { DEFAULT_MOUNT_PATH } from "../defaults";
import { compactOrNone, type Notes } from "./json";
import { isPlainObject, type JsonMap, own } from "../json";

export const OGX_MOUNT_PATH = "/.ogx";

const SAME = [
  "replicas",
  "workers",
  "resources",
  "resourceClaims",
  "autoscaling",
  "topologySpreadConstraints",
] as const;
const OVERRIDES = ["serviceAccountName", "env", "command", "args", "volumes", "volumeMounts"] as const;
/** Overrides OGXServer has no field for: kept in the annotation, with a warning. */
const ONLY_HERE = ["terminationGracePeriodSeconds", "priorityClassName"] as const;

/** A list the peer holds (every list there has minItems 1): an empty one is left out. */
const nonEmpty = (value: unknown): unknown => (Array.isArray(value) && value.length === 0 ? undefined : value);

function storageOf(storage: unknown, defaultPath: string, path: string, notes: Notes): JsonMap | undefined {
  if (!isPlainObject(storage)) return undefined;
  const mountPath = own(storage, "mountPath");
  if (mountPath === undefined)
    notes.warn(
      `${path}.mountPath`,
      `written as ${defaultPath}: the default mount path differs (llsd-hooks ${DEFAULT_MOUNT_PATH}, OGXServer ${OGX_MOUNT_PATH})`,
    );
  return (
    compactOrNone([
      ["size", own(storage, "size")],
      ["mountPath", mountPath ?? defaultPath],
    ]) ?? {}
  );
}

function pdbOf(pdb: unknown, path: string, notes: Notes): unknown {
  if (!isPlainObject(pdb) || Object.keys(pdb).length > 0) return pdb;
  notes.warn(
    path,
    "written as maxUnavailable: 1, what llsd-hooks makes of {} (the peer requires one of the two fields)",
  );
  return { maxUnavailable: 1 };
}

function overridesToOgx(overrides: unknown, notes: Notes): JsonMap | undefined {
  if (!isPlainObject(overrides)) return undefined;
  for (const key of ONLY_HERE)
    if (overrides[key] !== undefined)
      notes.warn(
        `spec.workload.overrides.${key}`,
        "not converted (kept in the annotation): OGXServer has no such field",
      );
  return compactOrNone(OVERRIDES.map((key) => [key, nonEmpty(own(overrides, key))]));
}

export function workloadToOgx(workload: unknown, notes: Notes): JsonMap | undefined {
  if (!isPlainObject(workload)) return undefined;
  return compactOrNone([
    ...SAME.map((key): [string, unknown] => [key, nonEmpty(own(workload, key))]),
    ["storage", storageOf(workload.storage, DEFAULT_MOUNT_PATH, "spec.workload.storage", notes)],
    ["podDisruptionBudget", pdbOf(workload.podDisruptionBudget, "spec.workload.podDisruptionBudget", notes)],
    ["overrides", overridesToOgx(workload.overrides, notes)],
  ]);
}

export function workloadFromOgx(workload: unknown, notes: Notes): JsonMap | undefined {
  if (!isPlainObject(workload)) return undefined;
  return compactOrNone([
    ...SAME.map((key): [string, unknown] => [key, own(workload, key)]),
    ["storage", storageOf(workload.storage, OGX_MOUNT_PATH, "spec.workload.storage", notes)],
    ["podDisruptionBudget", own(workload, "podDisruptionBudget")],
    ["overrides", own(workload, "overrides")],
  ]);
}
