/**
 * The one verdict every `llsd` command gives a LlamaStackDistribution before it does anything
 * with it: `checkObject`, the admission webhook's check (lib/config/check-object.ts), on the line
 * the sync hook would pick. `validate` prints it; `render` and `request` refuse what it refuses,
 * so no command passes a CR that another command, /validate or /sync would turn away.
 */
import type { ValidationResult } from "../api/validate";
import { formatErrors } from "../errors";
import { checkObject } from "../config/check-object";
import { lineOfAdmitted } from "../admission/line";
import type { Release } from "../distributions/table";
import type { CrDocument } from "./documents";
import type { CliIo } from "./io";
import type { ConfigMapData } from "../config/override";
import { own } from "../json";
import { specHasRedisPassword } from "../api/validate-redis-password";

export interface VerdictOptions {
  /** The server line asked for (`--release`); @default the line the sync hook would pick. */
  readonly release?: Release;
  /** The base config given (`--base-config`); @default the distribution's bundled one. */
  readonly baseConfig?: string;
  /** The ConfigMaps of the same file: an overrideConfig or baseConfig among them is judged against them, as /sync does. */
  readonly configMaps?: ConfigMapData;
}

/**
 * A document read back from a cluster (`kubectl get -o yaml`): only the apiserver writes a uid
 * and a resourceVersion. Such a CR already exists, so what only new CRs are refused is kept (a
 * file written by hand is judged as a new CR, as /validate judges a CREATE).
 */
function readBack(object: unknown): boolean {
  const metadata = own(object, "metadata");
  return typeof own(metadata, "uid") === "string" && typeof own(metadata, "resourceVersion") === "string";
}

/** Every problem of one document, as `llsd validate` lists them and /validate denies them. */
export function verdictOf(doc: CrDocument, options: VerdictOptions = {}): ValidationResult {
  // The line the sync hook would pick for this object (a new CR: the current default; v1alpha1: the Go operator's).
  const release = options.release ?? lineOfAdmitted(doc.object);
  const checked = checkObject(doc.object, {
    ...(release ? { release } : {}),
    ...(options.baseConfig !== undefined ? { baseConfig: options.baseConfig } : {}),
    ...(options.configMaps !== undefined ? { configMaps: options.configMaps } : {}),
    ...(readBack(doc.object) ? { keepsRedisPassword: specHasRedisPassword(own(doc.object, "spec")) } : {}),
  });
  // What only the input shows (no name, a Secret of the input that does not hold the reference) comes first.
  return doc.problems.length === 0 ? checked : { ...checked, errors: [...doc.problems, ...checked.errors] };
}

/**
 * For `render` and `request`: true when the document may go on; else its warnings and every
 * problem on stderr, in the lines `llsd validate` prints, and false.
 */
export function passes(doc: CrDocument, options: VerdictOptions, io: CliIo): boolean {
  const verdict = verdictOf(doc, options);
  if (verdict.errors.length === 0) return true;
  for (const w of verdict.warnings) io.stderr(`warning: ${doc.name}: ${w.path}: ${w.message}\n`);
  io.stderr(`error: ${doc.name}: ${verdict.errors.length} problem(s):\n${formatErrors(verdict.errors)}\n`);
  return false;
}
