/**
 * The prometheus-operator ServiceMonitor CRD, vendored (tests/fixtures/monitoring/crds/SOURCE.md),
 * as the apiserver reads it: an object's errors against its v1 structural schema.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { structuralErrors, versionSchema } from "../lib/crd/check";
import type { Crd } from "../lib/crd/generate";

const FILE = join(__dirname, "fixtures", "monitoring", "crds", "servicemonitors-v0.93.0.yaml");

let schema: ReturnType<typeof versionSchema> | undefined;

/** What the apiserver would refuse in `object` (empty: accepted). */
export function serviceMonitorErrors(object: unknown): string[] {
  schema ??= versionSchema(parse(readFileSync(FILE, "utf8")) as Crd, "v1");
  return structuralErrors(schema, object);
}
