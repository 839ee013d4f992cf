/**
 * From an input file to the cases the tier runs: each LlamaStackDistribution, checked and rendered
 * by the same code as `llsd render` (lib/cli: documents, verdict; lib/config/render), on the line
 * the sync hook picks for it. A case carries config.yaml and the container env as the pod gets
 * them: Secret values from the Secrets of the same file (test values otherwise).
 */
import { readFileSync } from "node:fs";
import { isPlainObject, own } from "../../lib/json";
import { asStored, llsdDocuments, type CrDocument } from "../../lib/cli/documents";
import type { CliIo } from "../../lib/cli/io";
import { passes, verdictOf } from "../../lib/cli/verdict";
import { lineOfAdmitted } from "../../lib/admission/line";
import { normalizedSpec } from "../../lib/api/validate";
import { bundledConfigOf } from "../../lib/distributions/bundled";
import { render } from "../../lib/config/render";
import type { ConfigMapData } from "../../lib/config/override";
import type { Input } from "./inputs";

export type Case =
  { readonly label: string; readonly skip: string } | { readonly label: string; readonly fail: string } | Runnable;

export interface Runnable {
  readonly label: string;
  readonly configYaml: string;
  /** Container env; a value of `{ postgres: key }` is the DSN part the hooks split into their own Secret. */
  readonly env: readonly { readonly name: string; readonly value: string | { readonly postgres: string } }[];
  /** The spec as stored (v1alpha2). */
  readonly spec: { readonly [k: string]: unknown };
}

type Secrets = { [name: string]: { [key: string]: string } };

function secretsOf(others: readonly { [k: string]: unknown }[]): Secrets {
  const secrets: Secrets = {};
  for (const o of others) {
    const name = own(o.metadata, "name");
    if (o.kind !== "Secret" || typeof name !== "string") continue;
    const data = isPlainObject(o.data) ? o.data : {};
    const decoded = Object.entries(data).map(([k, v]) => [k, Buffer.from(String(v), "base64").toString("utf8")]);
    const plain = Object.entries(isPlainObject(o.stringData) ? o.stringData : {}).map(([k, v]) => [k, String(v)]);
    secrets[name] = Object.fromEntries([...decoded, ...plain]) as { [key: string]: string };
  }
  return secrets;
}

/** A Secret's value as the pod reads it; a test value when the input does not hold the Secret. */
const secretValue = (secrets: Secrets, name: string, key: string): string =>
  secrets[name]?.[key] ?? `test-${name}-${key}`;

/** `workload.overrides.env` of the stored spec: the user's own container env. */
function overrideEnv(spec: { [k: string]: unknown }, secrets: Secrets): { name: string; value: string }[] {
  const env = own(own(spec.workload, "overrides"), "env");
  return (Array.isArray(env) ? env : []).flatMap((e: unknown) => {
    const name = own(e, "name");
    const value = own(e, "value");
    const ref = own(own(e, "valueFrom"), "secretKeyRef");
    if (typeof name !== "string") return [];
    if (typeof value === "string") return [{ name, value }];
    return ref ? [{ name, value: secretValue(secrets, String(own(ref, "name")), String(own(ref, "key"))) }] : [];
  });
}

const silent: CliIo = { stdout: () => undefined, stderr: () => undefined, readFile: (p) => readFileSync(p, "utf8") };

function caseOf(
  doc: CrDocument,
  input: Input,
  read: { configMaps: ConfigMapData; secrets: Secrets },
): Case | undefined {
  const label = `${input.label} ${doc.name}`;
  const release = lineOfAdmitted(doc.object);
  const stored = passes(doc, { release }, silent) ? asStored(doc, input.label, silent) : undefined;
  if (stored === undefined || release === undefined)
    return input.mustRender ? { label, fail: "the hooks refuse it (llsd validate)" } : undefined;
  if (!release.startsWith("1.")) return { label, skip: `the sync hook runs it on the ${release} server line, not 1.x` };
  const spec = isPlainObject(stored.object.spec) ? stored.object.spec : {};
  const rendered = render(spec, { name: doc.name, configMaps: read.configMaps, release });
  if (!rendered.ok)
    return input.mustRender ? { label, fail: `llsd render refuses it: ${rendered.errors[0]?.message}` } : undefined;
  const userEnv = overrideEnv(spec, read.secrets);
  // A doc example that shows the hooks' warning about a user's own config file is not meant to start.
  const warned = verdictOf(doc, { release, configMaps: read.configMaps }).warnings[0];
  if (rendered.source === "override" && !input.mustRender && warned)
    return { label, skip: `the example shows the hooks' warning about its ConfigMap: ${warned.message}` };
  if (rendered.source === "override")
    return rendered.configYaml === undefined
      ? { label, skip: "its overrideConfig ConfigMap is not in the file" }
      : { label, configYaml: rendered.configYaml, env: userEnv, spec };
  if (rendered.source === "image-default") {
    // The image runs the config it carries; the bundled base is that config for a named distribution.
    const d = normalizedSpec(spec)?.distribution;
    const own = d && bundledConfigOf(d, release);
    if (own === undefined) return { label, skip: "the image's own config is not known offline (no bundled base)" };
    return { label, configYaml: own, env: userEnv, spec };
  }
  const g = rendered.generated;
  const pgSecret = g.postgres?.secretName;
  const env = [
    ...g.secretEnv.map((e) => ({
      name: e.name,
      value:
        e.secretName === pgSecret ? { postgres: e.secretKey } : secretValue(read.secrets, e.secretName, e.secretKey),
    })),
    ...g.plainEnv,
    ...userEnv,
  ];
  return { label, configYaml: g.configYaml, env, spec };
}

export function casesOf(input: Input): Case[] {
  const read = llsdDocuments(input.text, input.label);
  if (!read.ok) return input.mustRender ? [{ label: input.label, fail: "not a readable YAML of CRs" }] : [];
  const secrets = secretsOf(read.others);
  return read.documents.flatMap((doc) => caseOf(doc, input, { configMaps: read.configMaps, secrets }) ?? []);
}
