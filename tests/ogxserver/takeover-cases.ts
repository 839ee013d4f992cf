/**
 * The takeover scenarios: an OGXServer as its user wrote it, the LLSD of the same name that
 * replaces it (what the conversion writes: explicit mountPath `/.ogx`, explicit provider ids),
 * and the OGX operator's children for it (tests/ogxserver/peer-children.ts).
 */
import { factsOfOgxServer, type OgxServerFacts } from "../../lib/migrate/ogxserver-facts";
import { labelledChildren } from "../../lib/migrate/ogxserver-steps";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { NS } from "../sync-builders";
import { peerObserved, type PeerServer, type PeerSpec } from "./peer-children";
import { PEER_IMAGE_STARTER } from "./peer-deployment";

export const NAME = "chat";
export const UID = "9a1e6f3c-2b7d-4e8a-b5c1-0d3f7e9a2c64";

export interface TakeoverCase {
  /** The OGXServer's spec, as written (the facts are read from it). */
  readonly ogxServer: object;
  /** What the OGX operator derived from it that the model needs (image, generated config). */
  readonly peer: Omit<PeerSpec, "network" | "workload">;
  /** The LLSD's spec. */
  readonly llsd: object;
  /** The Secrets and ConfigMaps the LLSD refers to. */
  readonly related?: readonly KubeObject[];
}

const starter = { distribution: { name: "starter" } };
/** The same words in both APIs. */
const SCALING = {
  replicas: 2,
  autoscaling: { minReplicas: 2, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
  podDisruptionBudget: { maxUnavailable: 1 },
};
/**
 * Several pods share their state only off the pod (docs/scaling.md): Redis, Postgres, and no API
 * that keeps files or vectors on the pod's disk.
 */
const SHARED_STATE = {
  storage: {
    kv: { type: "redis", endpoint: "redis.db.svc:6379" },
    sql: { type: "postgres", connectionString: { name: "chat-db", key: "dsn" } },
  },
};
const OFF_POD = [
  "vectorIo",
  "files",
  "batches",
  "responses",
  "fileProcessors",
  "toolRuntime",
  "messages",
  "interactions",
  "skills",
];
const PEER_OFF_POD = ["vector_io", "files", "batches", "responses", "file_processors", "tool_runtime"];
const DB_SECRET: KubeObject = {
  apiVersion: "v1",
  kind: "Secret",
  metadata: { name: "chat-db", namespace: NS },
  data: { dsn: Buffer.from("postgresql://chat:pw@postgres.db.svc:5432/chat").toString("base64") },
};
const SHARED_CONFIG = {
  hash: "8d2e41c07a9b3f65",
  yaml: "version: 2\ndistro_name: starter\napis: [inference]\nstorage:\n  backends:\n    kv_default: {type: kv_redis, host: redis.db.svc, port: 6379}\n",
};
const VLLM = { id: "vllm", endpoint: "http://vllm.models.svc:8000/v1" };
const CONFIG = {
  hash: "3f9c0a7be21d4c58",
  yaml: "version: 2\ndistro_name: starter\napis: [inference]\nproviders:\n  inference:\n  - provider_id: vllm\n    provider_type: remote::vllm\n    config: {base_url: 'http://vllm.models.svc:8000/v1'}\n",
};

export const CASES: readonly [string, TakeoverCase][] = [
  [
    "storage",
    {
      ogxServer: {
        ...starter,
        providers: { inference: { remote: { vllm: [VLLM] } } },
        workload: { storage: { size: "20Gi" } },
      },
      peer: { image: PEER_IMAGE_STARTER, generatedConfig: CONFIG },
      llsd: {
        ...starter,
        providers: { inference: [{ ...VLLM, provider: "vllm" }] },
        workload: { storage: { size: "20Gi", mountPath: "/.ogx" } },
      },
    },
  ],
  ["no-storage", { ogxServer: starter, peer: { image: PEER_IMAGE_STARTER }, llsd: starter }],
  [
    "autoscaling-pdb",
    {
      ogxServer: { ...starter, ...SHARED_STATE, disabledAPIs: PEER_OFF_POD, workload: SCALING },
      peer: { image: PEER_IMAGE_STARTER, generatedConfig: SHARED_CONFIG },
      llsd: { ...starter, ...SHARED_STATE, disabled: OFF_POD, workload: SCALING },
      related: [DB_SECRET],
    },
  ],
  // The OGX operator serves metrics by default; an LLSD that keeps them asks for the same port.
  [
    "monitoring",
    {
      ogxServer: { ...starter, monitoring: { enabled: true } },
      peer: { image: PEER_IMAGE_STARTER },
      llsd: { ...starter, monitoring: { enabled: true } },
    },
  ],
  [
    "exposed",
    {
      ogxServer: { ...starter, network: { externalAccess: { enabled: true } } },
      peer: { image: PEER_IMAGE_STARTER },
      llsd: { ...starter, networking: { expose: true } },
    },
  ],
];

export function peerServerOf(c: TakeoverCase): PeerServer {
  const { network, workload } = c.ogxServer as Pick<PeerSpec, "network" | "workload">;
  return {
    name: NAME,
    namespace: NS,
    spec: { ...c.peer, ...(network ? { network } : {}), ...(workload ? { workload } : {}) },
  };
}

export const factsOf = (c: TakeoverCase): OgxServerFacts => factsOfOgxServer({ spec: c.ogxServer });

/** The OGX operator's children as Metacontroller observes them after the steps: those the steps label. */
export const observedOf = (c: TakeoverCase): KubeObject[] =>
  peerObserved(peerServerOf(c), UID, labelledChildren(NAME, factsOf(c)));

export function llsdOf(c: TakeoverCase): KubeObject {
  return {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name: NAME, namespace: NS, uid: UID, generation: 1 },
    spec: c.llsd,
  };
}
