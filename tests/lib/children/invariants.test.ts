/** Relations that must hold between the children of one parent, whatever the spec. */
import fc from "fast-check";
import type { V1Deployment } from "@kubernetes/client-node";
import { desiredChildren } from "../../../lib/children";
import type { ChildContext } from "../../../lib/children/context";
import { commonLabels, LONGEST_NAME, NAME_FORMATS, names, selectorLabels, type NameFormat } from "../../../lib/names";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { resolvedExternals } from "../../external-fixtures";
import {
  aContext,
  aFullContext,
  aFullSpec,
  aGeneratedConfig,
  NAME,
  NAMESPACE,
  POSTGRES_PARTS,
} from "./context-builder";
import { only, validateChild } from "./models";

type Selector = { matchLabels?: Record<string, string> };
const spec = (o: KubeObject): Record<string, unknown> => (o.spec ?? {}) as Record<string, unknown>;
const podLabels = (children: readonly KubeObject[]): Record<string, string> =>
  (only(children, "Deployment") as unknown as V1Deployment).spec!.template.metadata!.labels!;
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>): boolean =>
  selector !== undefined &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);

const withExternals = (ctx: ChildContext): ChildContext => ({ ...ctx, externalProviders: resolvedExternals(ctx.spec) });

const CONTEXTS: [string, ChildContext][] = [
  ["minimal", aContext()],
  ["generated config", aContext({ config: aGeneratedConfig() })],
  ["full (Ingress)", aFullContext()],
  ["full (Route)", aFullContext({ exposeWith: "route" })],
  ["replicas 3, storage", aContext({ spec: { workload: { replicas: 3, storage: {} } } })],
  [
    "full with a CA bundle",
    aFullContext({
      caBundle: {
        configMapName: `${NAME}-ca-bundle`,
        data: "-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----\n",
        hash: "c".repeat(64),
      },
    }),
  ],
  [
    "full with two external providers",
    withExternals(
      aFullContext({
        spec: {
          ...aFullSpec(),
          externalProviders: {
            inference: [{ providerId: "my-inference", image: "registry.example.com/p/inf:1" }],
            vectorIo: [{ providerId: "My_Store.v2", image: "registry.example.com/p/vec:2", imagePullPolicy: "Always" }],
          },
        },
      }),
    ),
  ],
  [
    "v1alpha1 with userConfig, replicas 3",
    aContext({
      spec: { workload: { replicas: 3, storage: {} }, networking: { allowedFrom: { namespaces: ["frontend"] } } },
      config: { source: "override", configMapName: "my-config", hash: "h" },
      legacy: { containerName: "server", networkSet: true },
    }),
  ],
];

/** Every name and label value of `children` that Kubernetes would refuse, as `what: value`. */
function overLimit(children: readonly KubeObject[]): string[] {
  const bad: string[] = [];
  const check = (what: string, value: string, format: NameFormat) => {
    const f = NAME_FORMATS[format];
    if (value.length > f.max || !f.pattern.test(value)) bad.push(`${what} (${format}): ${value}`);
  };
  for (const c of children) {
    check(`${c.kind} name`, c.metadata.name, c.kind === "Service" ? "DNS-1035 label" : "DNS-1123 subdomain");
    for (const [k, v] of Object.entries(c.metadata.labels ?? {})) check(`${c.kind} label ${k}`, v, "label value");
    const pod = (c as unknown as V1Deployment).spec?.template?.spec;
    if (c.kind !== "Deployment" || !pod) continue;
    for (const [k, v] of Object.entries((c as unknown as V1Deployment).spec!.template.metadata?.labels ?? {}))
      check(`pod label ${k}`, v, "label value");
    for (const container of [...(pod.initContainers ?? []), ...pod.containers])
      check("container name", container.name, "DNS-1123 label");
    for (const volume of pod.volumes ?? []) check("volume name", volume.name, "DNS-1123 label");
  }
  return bad;
}

describe.each(CONTEXTS)("given the %s context", (_title, ctx) => {
  const children = desiredChildren(ctx);
  const labels = podLabels(children);

  it("every name and label value fits the limit Kubernetes puts on it", () => {
    expect(overLimit(children)).toEqual([]);
  });

  it("the pod labels are exactly the selector labels", () => {
    expect(labels).toEqual(selectorLabels(NAME));
    expect((only(children, "Deployment") as unknown as V1Deployment).spec!.selector.matchLabels).toEqual(labels);
  });

  it("the Service, NetworkPolicy and PDB select the Deployment's pods", () => {
    expect(selects(spec(only(children, "Service")).selector as Record<string, string>, labels)).toBe(true);
    expect(selects((spec(only(children, "NetworkPolicy")).podSelector as Selector).matchLabels, labels)).toBe(true);
    for (const pdb of children.filter((c) => c.kind === "PodDisruptionBudget")) {
      expect(selects((spec(pdb).selector as Selector).matchLabels, labels)).toBe(true);
    }
  });

  it("the Service's targetPort is a container port with the same number (by name, or by number for a v1alpha1 CR)", () => {
    const deployment = only(children, "Deployment") as unknown as V1Deployment;
    const ports = deployment.spec!.template.spec!.containers.flatMap((c) => c.ports ?? []);
    const servicePorts = spec(only(children, "Service")).ports as { port: number; targetPort: string | number }[];
    for (const sp of servicePorts) {
      const target = ports.find((p) =>
        typeof sp.targetPort === "number" ? p.containerPort === sp.targetPort : p.name === sp.targetPort,
      );
      expect(target?.containerPort).toBe(sp.port);
    }
  });

  it("the HPA, Ingress and Route point at our Deployment and Service", () => {
    for (const hpa of children.filter((c) => c.kind === "HorizontalPodAutoscaler")) {
      expect(spec(hpa).scaleTargetRef).toEqual({
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: only(children, "Deployment").metadata.name,
      });
    }
    const service = only(children, "Service").metadata.name;
    for (const ingress of children.filter((c) => c.kind === "Ingress")) {
      expect(JSON.stringify(spec(ingress).rules)).toContain(`"service":{"name":"${service}","port":{"name":"http"}}`);
    }
    for (const route of children.filter((c) => c.kind === "Route"))
      expect((spec(route).to as { name: string }).name).toBe(service);
  });

  it("every child carries the common labels and the parent's namespace, and validates", () => {
    for (const child of children) {
      expect(child.metadata.namespace).toBe(NAMESPACE);
      expect(child.metadata.labels).toEqual(expect.objectContaining(commonLabels(NAME)));
      expect(() => validateChild(child)).not.toThrow();
    }
  });

  it("every container's volume mounts name a volume of the pod; init containers are hardened like the server", () => {
    const pod = (only(children, "Deployment") as unknown as V1Deployment).spec!.template.spec!;
    const volumes = new Set((pod.volumes ?? []).map((v) => v.name));
    const all = [...(pod.initContainers ?? []), ...pod.containers];
    for (const c of all) for (const m of c.volumeMounts ?? []) expect(volumes).toContain(m.name);
    const containerNames = all.map((c) => c.name);
    expect(new Set(containerNames).size).toBe(containerNames.length);
    for (const c of pod.initContainers ?? []) {
      expect(c.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(c.name.length).toBeLessThanOrEqual(63);
      expect(c.securityContext).toEqual(pod.containers[0]!.securityContext);
    }
    expect((pod.initContainers ?? []).length).toBe(
      ctx.externalProviders?.length ? ctx.externalProviders.length + 1 : 0,
    );
  });

  it("names are unique per kind", () => {
    const keys = children.map((c) => `${c.kind}/${c.metadata.name}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("no secret value (plain or base64) appears outside the postgres Secret's data", () => {
    const outside = JSON.stringify(children.map((c) => (c.kind === "Secret" ? { ...c, data: undefined } : c)));
    for (const value of Object.values(POSTGRES_PARTS)) {
      expect(outside).not.toContain(value);
      expect(outside).not.toContain(Buffer.from(value).toString("base64"));
    }
  });
});

describe("invariants over generated workloads (property)", () => {
  const workload = fc.record(
    {
      replicas: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
      workers: fc.option(fc.integer({ min: 1, max: 16 }), { nil: undefined }),
      autoscaling: fc.option(
        fc.record({
          minReplicas: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
          maxReplicas: fc.integer({ min: 5, max: 20 }),
        }),
        { nil: undefined },
      ),
      storage: fc.option(fc.record({ size: fc.constantFrom("1Gi", "20Gi") }), { nil: undefined }),
    },
    { requiredKeys: [] },
  );
  const networking = fc.record({
    port: fc.integer({ min: 1024, max: 65535 }),
    expose: fc.boolean(),
    tls: fc.constantFrom({ enabled: false }, { enabled: true, secretName: "tls" }),
  });

  it("every child validates; HPA min ≤ max; replicas absent exactly under an HPA; Recreate exactly with a PVC", () => {
    fc.assert(
      fc.property(
        workload,
        networking,
        fc.constantFrom<"ingress" | "route">("ingress", "route"),
        (w, n, exposeWith) => {
          const children = desiredChildren(
            aContext({ spec: { workload: w, networking: n }, exposeWith, config: aGeneratedConfig() }),
          );
          for (const child of children) validateChild(child);
          const deployment = only(children, "Deployment") as unknown as V1Deployment;
          const hpa = children.find((c) => c.kind === "HorizontalPodAutoscaler");
          if (hpa) expect((spec(hpa).minReplicas as number) <= (spec(hpa).maxReplicas as number)).toBe(true);
          expect(deployment.spec!.replicas === undefined).toBe(hpa !== undefined);
          expect(deployment.spec!.strategy!.type === "Recreate").toBe(
            children.some((c) => c.kind === "PersistentVolumeClaim"),
          );
          expect(children.some((c) => c.metadata.name === names.pvc(NAME))).toBe(w.storage !== undefined);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe(`a CR name of the longest length that fits (${LONGEST_NAME} characters)`, () => {
  it.each(CONTEXTS)("given the %s context, every child's names and labels fit their limits", (_title, ctx) => {
    const long = "l".repeat(LONGEST_NAME);
    const children = desiredChildren({
      ...ctx,
      name: long,
      ...(ctx.caBundle ? { caBundle: { ...ctx.caBundle, configMapName: names.caBundle(long) } } : {}),
    });
    expect(overLimit(children)).toEqual([]);
  });

  it("one character more and the check fails (the Service name)", () => {
    expect(overLimit(desiredChildren({ ...aFullContext(), name: "l".repeat(LONGEST_NAME + 1) }))).toEqual([
      `Service name (DNS-1035 label): ${"l".repeat(LONGEST_NAME + 1)}-service`,
    ]);
  });
});
