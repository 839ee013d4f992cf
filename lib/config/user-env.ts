/**
 * Secret-backed variables the user adds in `workload.overrides.env`: the docs tell users to put
 * API keys there (`GEMINI_API_KEY` from a Secret), and the server's `${env.…}` substitution
 * reads them exactly as it reads ours. The customize hook fetches these Secrets, so their values
 * can be checked like the spec's own (lib/sync/secret-values.ts). A missing one is not an error
 * here: the kubelet holds the pod back (or skips an optional one) and says so.
 */
import type { CanonicalSpec } from "../api/canonical";
import { isPlainObject } from "../json";
import { USER_ENV_PATH } from "./env-check";
import type { SecretEnv } from "./providers";

export function userSecretEnv(spec: CanonicalSpec): SecretEnv[] {
  const out: SecretEnv[] = [];
  const env = spec.workload.overrides?.env ?? [];
  env.forEach((entry, i) => {
    const ref: unknown = isPlainObject(entry.valueFrom) ? entry.valueFrom.secretKeyRef : undefined;
    if (typeof entry.name !== "string" || !isPlainObject(ref)) return;
    const { name, key } = ref;
    if (typeof name === "string" && typeof key === "string")
      out.push({
        name: entry.name,
        secretName: name,
        secretKey: key,
        path: `${USER_ENV_PATH}[${i}].valueFrom.secretKeyRef`,
      });
  });
  return out;
}
