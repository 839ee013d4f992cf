/**
 * `networking.allowedFrom` becomes NetworkPolicy peers (lib/children/network-policy.ts), and the
 * apiserver refuses a policy whose selector holds an invalid label key or value. The Go
 * operator used each `labels` entry verbatim as a namespace label KEY (operator Exists); its own
 * README example `team=frontend` is not a key, and its policy was refused. Say so at admission.
 */
import { fieldError, type FieldError } from "../errors";
import type { CanonicalSpec } from "./canonical";

const PATH = "spec.networking.allowedFrom";
/** The v1alpha1 twin, for users who wrote the CR in v1alpha1. */
const V1ALPHA1_PATH = "spec.network.allowedFrom";

/** A DNS-1123 subdomain (a label key's optional prefix). */
const SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
/** A label name, or a label value when not empty (apimachinery's qualified-name part). */
const NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const NAME_MAX = 63;
const PREFIX_MAX = 253;

/** apimachinery's IsQualifiedName: `[prefix/]name`. */
export function isLabelKey(key: string): boolean {
  const slash = key.lastIndexOf("/");
  const name = slash < 0 ? key : key.slice(slash + 1);
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  if (prefix !== undefined && (prefix.length === 0 || prefix.length > PREFIX_MAX || !SUBDOMAIN.test(prefix)))
    return false;
  return name.length <= NAME_MAX && NAME.test(name);
}

/** apimachinery's IsValidLabelValue (a namespace name is matched as the value of its name label). */
export function isLabelValue(value: string): boolean {
  return value === "" || (value.length <= NAME_MAX && NAME.test(value));
}

function labelError(index: number, entry: string): FieldError {
  const [key = entry, value] = entry.split("=", 2);
  const hint =
    value !== undefined && isLabelKey(key.trim())
      ? ` A key=value selector is not supported: write "${key.trim()}" to admit every namespace that has a ${key.trim()} label (any value), or list the namespaces in allowedFrom.namespaces.`
      : ' Write a label key such as "team" or "example.com/team".';
  return fieldError(
    `${PATH}.labels[${index}]`,
    `${JSON.stringify(entry)} is not a namespace label key (${V1ALPHA1_PATH}.labels in v1alpha1): each entry admits the namespaces that have that label key, whatever its value, and the NetworkPolicy would be refused.${hint}`,
  );
}

export function allowedFromRules(spec: CanonicalSpec): FieldError[] {
  const allowed = spec.networking.allowedFrom;
  const errors: FieldError[] = [];
  (allowed?.labels ?? []).forEach((entry, i) => {
    if (!isLabelKey(entry)) errors.push(labelError(i, entry));
  });
  (allowed?.namespaces ?? []).forEach((entry, i) => {
    if (entry !== "*" && !isLabelValue(entry)) {
      errors.push(
        fieldError(
          `${PATH}.namespaces[${i}]`,
          `${JSON.stringify(entry)} is not a namespace name; write a namespace's name, or "*" for every namespace`,
        ),
      );
    }
  });
  return errors;
}
