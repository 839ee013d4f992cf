/**
 * `workload.resourceClaims` (pod-level DRA claims) and the container's `resources.claims`, checked
 * as the apiserver checks the pod template (core validation `validatePodResourceClaim` and
 * `validateResourceClaimNames`): without these checks the Deployment would be refused at apply,
 * long after admission said yes. The schema already checks the names' shape (DNS labels and
 * subdomains); the apiserver's list-map refuses a repeated pod claim name before the hooks run.
 */
import { child, fieldError, listOf, type FieldError } from "../errors";
import { meant } from "../suggest";
import type { CanonicalSpec } from "./canonical";
import type { ContainerClaimInput, PodResourceClaimInput } from "./v1alpha2";

const POD_CLAIMS = "spec.workload.resourceClaims";
const CONTAINER_CLAIMS = "spec.workload.resources.claims";

/** Exactly one source: a shared ResourceClaim, or a template each pod gets its own claim from. */
function sourceError(claim: PodResourceClaimInput, path: string): FieldError | undefined {
  const named = claim.resourceClaimName !== undefined;
  const templated = claim.resourceClaimTemplateName !== undefined;
  if (named !== templated) return undefined;
  return fieldError(
    path,
    named
      ? "set only one of resourceClaimName (one ResourceClaim every pod shares) or resourceClaimTemplateName (a ResourceClaim per pod), not both"
      : "set one of resourceClaimName (an existing ResourceClaim, shared by every pod) or resourceClaimTemplateName (a ResourceClaimTemplate: each pod gets a ResourceClaim of its own)",
  );
}

function podClaimErrors(claims: readonly PodResourceClaimInput[]): FieldError[] {
  const errors: FieldError[] = [];
  const first = new Map<string, number>();
  claims.forEach((claim, i) => {
    const path = child(POD_CLAIMS, i);
    const source = sourceError(claim, path);
    if (source) errors.push(source);
    const earlier = first.get(claim.name);
    if (earlier === undefined) first.set(claim.name, i);
    else
      errors.push(
        fieldError(
          child(path, "name"),
          `"${claim.name}" is already the name of resourceClaims[${earlier}]: each pod claim needs a name of its own`,
        ),
      );
  });
  return errors;
}

/** A container claim naming no pod claim: what exists, or what to add. */
function unknownClaim(claim: ContainerClaimInput, path: string, podNames: readonly string[]): FieldError {
  if (podNames.length === 0)
    return fieldError(
      path,
      `no pod claim is named "${claim.name}": workload.resourceClaims is empty; add {name: ${claim.name}, resourceClaimTemplateName: <a ResourceClaimTemplate>} (or resourceClaimName) there`,
    );
  return fieldError(
    path,
    `no pod claim is named "${claim.name}"${meant(claim.name, podNames, ".")} The names in workload.resourceClaims are ${listOf(podNames)}`,
  );
}

function containerClaimErrors(claims: readonly ContainerClaimInput[], podNames: readonly string[]): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  claims.forEach((claim, i) => {
    const path = child(CONTAINER_CLAIMS, i);
    if (!podNames.includes(claim.name)) errors.push(unknownClaim(claim, child(path, "name"), podNames));
    const key = claim.request === undefined ? claim.name : `${claim.name}/${claim.request}`;
    if (seen.has(key)) errors.push(fieldError(path, `"${key}" is listed twice: remove one`));
    seen.add(key);
  });
  return errors;
}

export function resourceClaimRules(spec: CanonicalSpec): FieldError[] {
  const podClaims = spec.workload.resourceClaims ?? [];
  const containerClaims = spec.workload.resources?.claims ?? [];
  if (podClaims.length === 0 && containerClaims.length === 0) return [];
  const podNames = podClaims.map((c) => c.name);
  return podClaimErrors(podClaims).concat(containerClaimErrors(containerClaims, podNames));
}
