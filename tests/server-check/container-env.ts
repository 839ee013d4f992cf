/**
 * The environment the server container will have, read from the Deployment a sync answered:
 * plain values as written; Secret-backed values from the Secrets the test gave (as the kubelet
 * would), else a plausible value of the kind the name suggests.
 */
import type { KubeObject } from "../../lib/wire/metacontroller";
import type { Env } from "./substitution";

export interface EnvVar {
  readonly name: string;
  readonly value?: string;
  readonly valueFrom?: { readonly secretKeyRef?: { readonly name: string; readonly key: string } };
}

/** A value a Secret could hold for this variable: a URL for *_URL, a port for *_PORT, text otherwise. */
export function plausibleSecretValue(name: string): string {
  if (/_(URL|URI|ENDPOINT|BASE_URL)$/.test(name)) return "https://plausible.example.com/v1";
  if (/_PORT$/.test(name)) return "5432";
  return `plausible-${name.toLowerCase()}`;
}

function secretData(secrets: readonly KubeObject[], name: string, key: string): string | undefined {
  const secret = secrets.find((s) => s.kind === "Secret" && s.metadata.name === name);
  const data = (secret?.data ?? {}) as Record<string, string>;
  const stringData = (secret as { stringData?: Record<string, string> } | undefined)?.stringData ?? {};
  if (stringData[key] !== undefined) return stringData[key];
  return data[key] === undefined ? undefined : Buffer.from(data[key], "base64").toString("utf8");
}

/** Env of the server container of the answered Deployment (the first container). */
export function containerEnv(children: readonly KubeObject[], secrets: readonly KubeObject[] = []): Env {
  const deployment = children.find((c) => c.kind === "Deployment") as
    { spec?: { template?: { spec?: { containers?: { env?: EnvVar[] }[] } } } } | undefined;
  const vars = deployment?.spec?.template?.spec?.containers?.[0]?.env ?? [];
  return envOf(vars, secrets);
}

export function envOf(vars: readonly EnvVar[], secrets: readonly KubeObject[] = []): Env {
  const env: Record<string, string> = {};
  for (const v of vars) {
    const ref = v.valueFrom?.secretKeyRef;
    if (v.value !== undefined) env[v.name] = v.value;
    else if (ref) env[v.name] = secretData(secrets, ref.name, ref.key) ?? plausibleSecretValue(v.name);
    else if (v.valueFrom) env[v.name] = plausibleSecretValue(v.name);
  }
  return env;
}
