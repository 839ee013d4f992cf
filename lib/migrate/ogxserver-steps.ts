/**
 * The road in from the OGX operator, with the server's data kept: the ordered steps (kubectl
 * commands with the real names) that hand a running OGXServer's children to an LLSD of the same
 * name, and what the hooks' first sync then changes (docs/migrating-from-ogxserver.md). Pure: the
 * converted LLSD (v1alpha2) and the facts of the OGXServer in, text out. `llsd migrate --from
 * ogxserver` prints it next to the converted object.
 */
import { own } from "../json";
import { stepsNamespace } from "../ogx/adopt";
import { names, OGX_APP, OGX_CONTAINER_NAME } from "../names";
import type { KubeObject } from "../wire/metacontroller";
import type { OgxServerFacts } from "./ogxserver-facts";

export interface TakeoverStep {
  readonly what: string;
  readonly command?: string;
}

export interface OgxTakeoverPlan {
  readonly steps: readonly TakeoverStep[];
  /** What the hooks' first sync changes, child by child. */
  readonly changes: readonly string[];
  /** What stays as the OGX operator left it. */
  readonly kept: readonly string[];
  readonly rollback: readonly TakeoverStep[];
}

/** The children Metacontroller must claim (`Kind/name`): every one the OGX operator made of a kind the hooks manage, except its generated ConfigMaps. */
export function labelledChildren(name: string, facts: OgxServerFacts): string[] {
  return [
    `Deployment/${names.deployment(name)}`,
    `Service/${names.service(name)}`,
    ...(facts.storage ? [`PersistentVolumeClaim/${names.pvc(name)}`] : []),
    ...(facts.networkPolicy ? [`NetworkPolicy/${names.networkPolicy(name)}`] : []),
    ...(facts.podDisruptionBudget ? [`PodDisruptionBudget/${names.pdb(name)}`] : []),
    ...(facts.autoscaling ? [`HorizontalPodAutoscaler/${names.hpa(name)}`] : []),
    ...(facts.expose ? [`Ingress/${names.ingress(name)}`] : []),
    ...(facts.caBundle ? [`ConfigMap/${names.caBundle(name)}`] : []),
  ];
}

const KUBECTL: { readonly [kind: string]: string } = {
  Deployment: "deploy",
  Service: "svc",
  PersistentVolumeClaim: "pvc",
  NetworkPolicy: "networkpolicy",
  PodDisruptionBudget: "pdb",
  HorizontalPodAutoscaler: "hpa",
  Ingress: "ingress",
  ConfigMap: "configmap",
};

const kubectlRef = (child: string): string => {
  const [kind = "", name = ""] = child.split("/");
  return `${KUBECTL[kind] ?? kind.toLowerCase()}/${name}`;
};

/** The LLSD's service port (`spec.networking.port`, default 8321). */
function portOf(llsd: KubeObject): number {
  const port = own(own(llsd.spec, "networking"), "port");
  return typeof port === "number" ? port : 8321;
}

export function ogxServerSteps(llsd: KubeObject, facts: OgxServerFacts): OgxTakeoverPlan {
  const name = llsd.metadata.name;
  const { ns, note } = stepsNamespace(llsd.metadata.namespace);
  return {
    steps: [
      ...(note === undefined ? [] : [{ what: note }]),
      ...handOver(name, ns, facts),
      ...afterwards(name, ns, facts),
    ],
    changes: changesOf(name, portOf(llsd), facts),
    kept: keptOf(name, facts),
    rollback: rollbackOf(name, ns),
  };
}

/** Up to the label that lets Metacontroller claim the children. */
function handOver(name: string, ns: string, facts: OgxServerFacts): TakeoverStep[] {
  const uid = `$(kubectl get llsd ${name} -n ${ns} -o jsonpath='{.metadata.uid}')`;
  const labelled = labelledChildren(name, facts).map(kubectlRef).join(" ");
  const monitoring: TakeoverStep = {
    what: "Delete the OGX operator's monitoring objects: they select its labels, which the first sync replaces",
    command: `kubectl delete servicemonitor/${name}-service-monitor prometheusrule/${name}-prometheus-rules -n ${ns} --ignore-not-found`,
  };
  return [
    {
      what: "Check the converted LLSD (saved from llsd migrate --from ogxserver)",
      command: `llsd validate ${name}-llsd.yaml`,
    },
    {
      what: "Delete the OGXServer but not its children: the server keeps running, no operator manages it",
      command: `kubectl delete ogxserver ${name} -n ${ns} --cascade=orphan`,
    },
    ...(facts.monitoring ? [monitoring] : []),
    {
      what: "Apply the LLSD: until its children are labelled it claims none (creating one that exists fails harmlessly)",
      command: `kubectl apply -n ${ns} -f ${name}-llsd.yaml`,
    },
    {
      what: "Label the children so Metacontroller claims them; the first sync then updates each in place",
      command: `kubectl label -n ${ns} ${labelled} controller-uid=${uid}`,
    },
  ];
}

/** Waiting for the new pods, then removing what no pod uses any more. */
function afterwards(name: string, ns: string, facts: OgxServerFacts): TakeoverStep[] {
  const cleanup: TakeoverStep = {
    what: "Remove the OGX operator's generated ConfigMaps (no pod mounts them any more)",
    command: `kubectl delete configmap -n ${ns} -l app.kubernetes.io/instance=${name},ogx.io/generated-config=true`,
  };
  return [
    { what: "Wait for the new pods", command: `kubectl rollout status deploy/${name} -n ${ns}` },
    { what: "Wait for the LLSD", command: `kubectl wait llsd/${name} -n ${ns} --for=condition=Ready --timeout=10m` },
    ...(facts.generatedConfig ? [cleanup] : []),
  ];
}

function changesOf(name: string, port: number, facts: OgxServerFacts): string[] {
  const rollout = facts.storage
    ? "Recreate, as before: the volume attaches to one node, so the old pod stops before the new one starts and the Service has no ready endpoint meanwhile"
    : "RollingUpdate: the new pods start next to the old ones and the Service sends to both until the old ones stop";
  return [
    `Deployment/${name}: updated in place, one rollout (${rollout}); the selector ${sel()} stays (immutable), and so do the pod labels and the container name ${OGX_CONTAINER_NAME}; the pods get the hooks' image choice, env, config (at /etc/llama-stack/config.yaml, also seen at /etc/ogx/), readiness probe and hardening`,
    `Service/${names.service(name)}: selector ${sel()} and targetPort ${port} (a number: the OGX operator's pods have an unnamed port) stay, so the running pods stay endpoints; labels become the hooks'`,
    ...(facts.networkPolicy
      ? [
          `NetworkPolicy/${names.networkPolicy(name)}: podSelector ${sel()} stays; its rules become the hooks' (spec.networking.allowedFrom)`,
        ]
      : [`NetworkPolicy/${names.networkPolicy(name)}: created (the OGXServer had none), selecting ${sel()}`]),
    ...(facts.podDisruptionBudget ? [`PodDisruptionBudget/${names.pdb(name)}: selector ${sel()} stays`] : []),
    ...(facts.autoscaling
      ? [`HorizontalPodAutoscaler/${names.hpa(name)}: same target; bounds and metrics from the LLSD`]
      : []),
    ...(facts.expose
      ? [`Ingress/${names.ingress(name)}: rules become the hooks' (hostname and class from the LLSD), same Service`]
      : []),
    `ConfigMap/${name}-config-<hash>: the hooks' generated config, created next to the OGX operator's`,
  ];
}

function keptOf(name: string, facts: OgxServerFacts): string[] {
  return [
    ...(facts.storage ? [`PersistentVolumeClaim/${names.pvc(name)} and its data: never updated, never deleted`] : []),
    `Service/${names.service(name)}: its ClusterIP and DNS name`,
    `ServiceAccount/${name}-sa (and on OpenShift its RoleBinding): not Metacontroller children; the pods keep serviceAccountName ${name}-sa until the LLSD sets workload.overrides.serviceAccountName`,
    "fields only the OGX operator wrote (no last-applied record): env such as OGX_CONFIG and OGX_METRICS_*, the metrics port 9464, the startup probe's delays; they stay until edited",
  ];
}

function rollbackOf(name: string, ns: string): TakeoverStep[] {
  return [
    {
      what: "Before the children are labelled nothing has changed: delete the LLSD (it owns only what the hooks created)",
      command: `kubectl delete llsd ${name} -n ${ns}`,
    },
    {
      what: "Apply the OGXServer again from your own manifest; its operator updates only children whose owner reference carries its UID, so give them that reference again (or adopt the PVC and Service under a new name with ogx.io/adopt-storage and ogx.io/adopt-networking)",
    },
  ];
}

const sel = (): string => `app=${OGX_APP}`;

/** The steps, numbered, as `llsd migrate --from ogxserver` prints them. */
export function renderOgxTakeover(plan: OgxTakeoverPlan): string {
  const step = (s: TakeoverStep, i: number) => [`${i + 1}. ${s.what}`, ...(s.command ? [`   ${s.command}`] : [])];
  return [
    "Steps:",
    ...plan.steps.flatMap(step),
    "What the first sync changes:",
    ...plan.changes.map((c) => `- ${c}`),
    "What is kept:",
    ...plan.kept.map((k) => `- ${k}`),
    "Rollback:",
    ...plan.rollback.flatMap(step),
    "",
  ].join("\n");
}
