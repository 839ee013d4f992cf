/**
 * The sync request every service benchmark sends: what `llsd request sync FILE` builds for the
 * full-featured sample (parent + the file's Secret as related), plus the children Metacontroller
 * would observe after applying one sync's answer (tests/sync-builders.ts `observedFrom`: server
 * metadata, the last-applied annotation, a ready Deployment) and a labelled pull Secret.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { requestCommand } from "../lib/cli/request";
import { DEFAULT_DISTRIBUTIONS } from "../lib/distributions/table";
import { sync, type SyncDeps } from "../lib/sync/sync";
import { REGISTRY_CREDENTIALS_LABEL } from "../lib/sync/base-source";
import { KEYS, type KubeObject, type SyncRequest } from "../lib/wire/metacontroller";
import { objectMap, observedFrom } from "../tests/sync-builders";

export const SAMPLE = "samples/autoscaling-full.yaml";
/** The sample's CR name: every child, Secret and label derives from it. */
const SAMPLE_NAME = "llsd-prod";

export const benchDeps = (): SyncDeps => ({
  now: () => new Date(), distributions: DEFAULT_DISTRIBUTIONS, hooksNamespace: "llsd-hooks", exposeWith: "ingress",
});

/** The sync request of the sample, as Metacontroller sends it once the children exist. */
export function sampleSyncRequest(): SyncRequest {
  let out = "";
  const status = requestCommand("sync", join(__dirname, "..", SAMPLE), {
    stdout: (text) => void (out += text),
    stderr: (text) => void process.stderr.write(text),
    readFile: (path) => readFileSync(path, "utf8"),
  });
  if (status !== 0) throw new Error(`llsd request sync ${SAMPLE} failed (${status})`);
  const parsed = JSON.parse(out) as SyncRequest;
  // What customize also asks for: the namespace's labelled pull Secrets (here for another registry).
  const request = { ...parsed, related: { ...parsed.related, [KEYS.secret]: { ...parsed.related?.[KEYS.secret], [`default/${PULL_SECRET.metadata.name}`]: PULL_SECRET } } };
  const first = sync(request, benchDeps());
  if (first.status.phase === "Failed") throw new Error(`the sample does not sync: ${JSON.stringify(first.status)}`);
  return { ...request, children: objectMap(observedFrom(first.children)) };
}

const PULL_SECRET: KubeObject = {
  apiVersion: "v1", kind: "Secret", type: "kubernetes.io/dockerconfigjson",
  metadata: { name: `${SAMPLE_NAME}-pull`, namespace: "default", labels: { [REGISTRY_CREDENTIALS_LABEL]: "true" } },
  data: { ".dockerconfigjson": Buffer.from(JSON.stringify({ auths: { "registry.example.com": { auth: Buffer.from("robot:not-a-secret").toString("base64") } } })).toString("base64") },
};

/**
 * The same request as JSON text for another parent: every name (parent, children, Secrets,
 * labels) follows `name`; with `image`, the spec names that image instead of the distribution.
 */
export function requestBody(text: string, name: string, image?: string): string {
  const renamed = text.replaceAll(SAMPLE_NAME, name);
  if (image === undefined) return renamed;
  const named = '"distribution":{"name":"starter"}';
  if (!renamed.includes(named)) throw new Error(`${SAMPLE} no longer names the starter distribution`);
  return renamed.replace(named, `"distribution":{"image":${JSON.stringify(image)}}`);
}
