/**
 * The road out: `llsd convert --to ogx.io/v1beta1 --adopt`. The peer operator takes over a
 * legacy server's PVC `<old>-pvc` and Service `<old>-service` when an OGXServer of *another*
 * name carries `ogx.io/adopt-storage` / `ogx.io/adopt-networking: <old>` (ogx-ai/ogx-k8s-operator
 * controllers/legacy_adoption.go and api/v1beta1/ogxserver_types.go at commit 1784464: the value
 * must be an RFC 1123 label other than the CR's name; it scales Deployment `<old>` to 0, waits
 * for the pods labelled `app.kubernetes.io/instance: <old>`, then strips the PVC's controller
 * reference and re-owns the Service). It refuses a PVC or Service whose controller is anything
 * but a `llamastack.io/v1alpha1` LlamaStackDistribution, and ours are owned through v1alpha2 (the
 * version Metacontroller watches): so the LLSD is first deleted with `--cascade=orphan`, which
 * lets go of every child without deleting any, and the server keeps running until the peer
 * scales it down. No annotation of ours does that (`llamastack.io/release-storage` would delete
 * the PVC), so the steps are printed, not written.
 */
import { fieldError, type FieldError } from "../errors";
import { names } from "../names";
import { SERVER_METADATA } from "../wire/metacontroller";
import { isPlainObject, type JsonMap, own } from "../json";

export const ADOPT_STORAGE = "ogx.io/adopt-storage";
export const ADOPT_NETWORKING = "ogx.io/adopt-networking";
/** The label the peer's operator needs on every Secret and ConfigMap an OGXServer names (its cache holds no others). */
export const OGX_WATCH_LABEL = "ogx.io/watch";

const DNS_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** What the printed `kubectl -n` gets when the object names no namespace: the shell refuses it as written. */
export const NAMESPACE_PLACEHOLDER = "<namespace>";

/**
 * The namespace every printed kubectl command carries (`-n`): the object's, else the placeholder
 * and a first step that says to replace it (kubectl's current namespace may not be the object's).
 */
export function stepsNamespace(namespace: unknown): { readonly ns: string; readonly note?: string } {
  if (typeof namespace === "string" && namespace !== "") return { ns: namespace };
  return {
    ns: NAMESPACE_PLACEHOLDER,
    note: `metadata.namespace is not set: replace ${NAMESPACE_PLACEHOLDER} in the commands below with the namespace the server runs in`,
  };
}

export interface AdoptOptions {
  /** The OGXServer's name; @default `<old>-ogx`. */
  readonly name?: string;
}

export type Adoption =
  | {
      readonly ok: true;
      readonly object: JsonMap;
      readonly steps: readonly string[];
      /** What to replace in the steps: the namespace placeholder, when the object names none. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/** Names of the ConfigMaps (`baseConfig`, `overrideConfig`, CA certificates) and Secrets (every other `{name, key}`) the spec refers to. */
export function referencedObjects(spec: unknown): { configMaps: string[]; secrets: string[] } {
  const configMaps = new Set<string>();
  const secrets = new Set<string>();
  const walk = (value: unknown, inConfigMap: boolean): void => {
    if (Array.isArray(value)) for (const item of value) walk(item, inConfigMap);
    if (!isPlainObject(value)) return;
    const keys = Object.keys(value).sort().join(",");
    if (keys === "key,name" && typeof value.name === "string") (inConfigMap ? configMaps : secrets).add(value.name);
    else for (const key of Object.keys(value)) walk(value[key], inConfigMap || CONFIG_MAP_FIELDS.has(key));
  };
  walk(spec, false);
  return { configMaps: [...configMaps].sort(), secrets: [...secrets].sort() };
}
const CONFIG_MAP_FIELDS = new Set(["baseConfig", "overrideConfig", "caCertificates"]);

function steps(old: string, name: string, ogx: JsonMap, ns: string): string[] {
  const { configMaps, secrets } = referencedObjects(ogx.spec);
  return [
    ...(secrets.length > 0 ? [`kubectl label secret ${secrets.join(" ")} -n ${ns} ${OGX_WATCH_LABEL}=true`] : []),
    ...(configMaps.length > 0
      ? [`kubectl label configmap ${configMaps.join(" ")} -n ${ns} ${OGX_WATCH_LABEL}=true`]
      : []),
    `kubectl delete llsd ${old} -n ${ns} --cascade=orphan`,
    `kubectl apply -n ${ns} -f ${name}.yaml`,
    `kubectl wait ogxserver/${name} -n ${ns} --for=jsonpath='{.status.phase}'=Ready --timeout=15m`,
    `kubectl delete deployment/${old} networkpolicy/${names.networkPolicy(old)} -n ${ns} --ignore-not-found`,
    `kubectl delete configmap,horizontalpodautoscaler,poddisruptionbudget -n ${ns} -l app.kubernetes.io/instance=${old},app.kubernetes.io/managed-by=llsd-hooks --ignore-not-found`,
  ];
}

/** The name adopted from and the OGXServer's new one, or why the peer would refuse them. */
function namesOf(metadata: JsonMap, options: AdoptOptions): { old: string; name: string } | FieldError {
  const old = own(metadata, "name");
  if (typeof old !== "string" || !DNS_LABEL.test(old))
    return fieldError(
      "metadata.name",
      "the peer adopts only from a name that is an RFC 1123 label (lower case, at most 63 characters)",
    );
  const name = options.name ?? `${old}-ogx`;
  if (name === old || !DNS_LABEL.test(name))
    return fieldError(
      "metadata.name",
      `the OGXServer needs a new name (an RFC 1123 label other than ${old}): the peer refuses adoption under the same name`,
    );
  return { old, name };
}

/** The converted OGXServer under a new name, with the peer's adoption annotations, and the steps in order. */
export function adoptionOf(ogx: JsonMap, options: AdoptOptions = {}): Adoption {
  const metadata = isPlainObject(ogx.metadata) ? ogx.metadata : {};
  const names = namesOf(metadata, options);
  if ("path" in names) return { ok: false, errors: [names] };
  const { old, name } = names;
  const annotations = isPlainObject(metadata.annotations) ? metadata.annotations : {};
  const hasStorage = own(own(ogx.spec, "workload"), "storage") !== undefined;
  const adopted = {
    ...annotations,
    ...(hasStorage ? { [ADOPT_STORAGE]: old } : {}),
    [ADOPT_NETWORKING]: old,
  };
  const kept = Object.fromEntries(Object.entries(metadata).filter(([key]) => !SERVER_METADATA.includes(key)));
  // A new object: what the apiserver set on the old one goes, and so does the status.
  const { status: _status, ...rest } = ogx;
  const object = { ...rest, metadata: { ...kept, name, annotations: adopted } };
  const { ns, note } = stepsNamespace(own(metadata, "namespace"));
  return { ok: true, object, steps: steps(old, name, ogx, ns), ...(note === undefined ? {} : { note }) };
}
