/**
 * The sync request every service benchmark sends: what `llsd request sync FILE` builds for the
 * full-featured sample (parent + the file's Secret as related) and a labelled pull Secret, as
 * Metacontroller sends it on a resync once it applied the answers (tests/sync-builders.ts
 * `afterApply`: every object stamped with uid and resourceVersion, the parent carrying the
 * status it was given, the children observed with server metadata, the last-applied
 * annotation and a ready Deployment).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { syncRequestShape } from "../hooks/request-shape";
import { requestCommand } from "../lib/cli/request";
import { DEFAULT_DISTRIBUTIONS } from "../lib/distributions/table";
import { sync, type SyncDeps } from "../lib/sync/sync";
import { REGISTRY_CREDENTIALS_LABEL } from "../lib/sync/base-source";
import { KEYS, type KubeObject, type SyncRequest } from "../lib/wire/metacontroller";
import { steadyState } from "../tests/sync-builders";

export const SAMPLE = "samples/autoscaling-full.yaml";
/** The sample's CR name: every child, Secret and label derives from it. */
const SAMPLE_NAME = "llsd-prod";

export const benchDeps = (): SyncDeps => ({
  now: () => new Date(),
  distributions: DEFAULT_DISTRIBUTIONS,
  hooksNamespace: "llsd-hooks",
  exposeWith: "ingress",
});

/** The sync request of the sample, as Metacontroller sends it once the children exist. */
export function sampleSyncRequest(): Promise<SyncRequest> {
  let out = "";
  const status = requestCommand("sync", join(__dirname, "..", SAMPLE), {
    stdout: (text) => void (out += text),
    stderr: (text) => void process.stderr.write(text),
    readFile: (path) => readFileSync(path, "utf8"),
  });
  if (status !== 0) throw new Error(`llsd request sync ${SAMPLE} failed (${status})`);
  const shaped = syncRequestShape(JSON.parse(out));
  if (!shaped.ok) throw new Error(`llsd request sync ${SAMPLE} printed no sync request: ${shaped.error}`);
  const parsed = shaped.request;
  // What customize also asks for: the namespace's labelled pull Secrets (here for another registry).
  const request = {
    ...parsed,
    related: {
      ...parsed.related,
      [KEYS.secret]: { ...parsed.related?.[KEYS.secret], [`default/${PULL_SECRET.metadata.name}`]: PULL_SECRET },
    },
  };
  return steadyState(request, (r) => {
    const answer = sync(r, benchDeps());
    if (answer.status.phase === "Failed") throw new Error(`the sample does not sync: ${JSON.stringify(answer.status)}`);
    return answer;
  });
}

const PULL_SECRET: KubeObject = {
  apiVersion: "v1",
  kind: "Secret",
  type: "kubernetes.io/dockerconfigjson",
  metadata: { name: `${SAMPLE_NAME}-pull`, namespace: "default", labels: { [REGISTRY_CREDENTIALS_LABEL]: "true" } },
  data: {
    ".dockerconfigjson": Buffer.from(
      JSON.stringify({
        auths: { "registry.example.com": { auth: Buffer.from("robot:not-a-secret").toString("base64") } },
      }),
    ).toString("base64"),
  },
};

/** The parent's uid in `sampleSyncRequest()` (lib/cli/request.ts gives every parent this one). */
const SAMPLE_UID = "00000000-0000-0000-0000-000000000001";

/** A uid of the same shape for parent `name` (the apiserver gives each object its own). */
function uidOf(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * The same request as JSON text for another parent: every name (parent, children, Secrets,
 * labels) and the parent's uid follow `name`; with `image`, the spec names that image instead
 * of the distribution.
 */
export function requestBody(text: string, name: string, image?: string): string {
  if (!text.includes(SAMPLE_UID)) throw new Error(`the sample request no longer carries the parent uid ${SAMPLE_UID}`);
  const renamed = text.replaceAll(SAMPLE_NAME, name).replaceAll(SAMPLE_UID, uidOf(name));
  if (image === undefined) return renamed;
  const named = '"distribution":{"name":"starter"}';
  if (!renamed.includes(named)) throw new Error(`${SAMPLE} no longer names the starter distribution`);
  return renamed.replace(named, `"distribution":{"image":${JSON.stringify(image)}}`);
}

/**
 * `requestBody` for parent `name`, brought to that parent's own steady state: what follows the
 * name is more than text (the Deployment's spec hash covers its labels), so a renamed copy of
 * the sample's steady request is a changed parent until its own answers are applied.
 */
export async function steadyRequestBody(text: string, name: string): Promise<string> {
  const shaped = syncRequestShape(JSON.parse(requestBody(text, name)));
  if (!shaped.ok) throw new Error(`the renamed request is no sync request: ${shaped.error}`);
  return JSON.stringify(await steadyState(shaped.request, (r) => sync(r, benchDeps())));
}

/** The parent's `uid`/`resourceVersion` pair in the request text (unique: the uid is the parent's). */
const PARENT_VERSION = `"uid":"${SAMPLE_UID}","resourceVersion":"7"`;

/** The same request with the parent at another resourceVersion (it changed since the last call). */
export function withParentVersion(text: string, resourceVersion: string): string {
  const at = text.indexOf(PARENT_VERSION);
  if (at < 0) throw new Error(`the sample request no longer carries ${PARENT_VERSION}`);
  return `${text.slice(0, at)}"uid":"${SAMPLE_UID}","resourceVersion":${JSON.stringify(resourceVersion)}${text.slice(at + PARENT_VERSION.length)}`;
}
