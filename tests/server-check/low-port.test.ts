/**
 * `networking.port` below 1024: every server line refuses `server.port` < 1024, and a
 * non-root container cannot bind there anyway. The CRD and /validate admit such a port (with a
 * warning); the Service serves it and forwards to the server on the default port, which the
 * config, the container, its env and the NetworkPolicy all agree on — and the server starts.
 */
import type { V1Deployment, V1NetworkPolicy, V1Service } from "@kubernetes/client-node";
import { LINE_STARTUP } from "../../lib/distributions/releases";
import { validate } from "../../lib/api/validate";
import { DEFAULT_PORT } from "../../lib/defaults";
import { RELEASES } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { celFailures, committedCrd, structuralErrors, versionSchema } from "../crd/crd-helpers";
import { aParent, aRequest, aSecret, deps } from "../sync-builders";
import { checkServerConfigs } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const spec = (port: number, extra: object = {}) => ({
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000/v1" } },
  networking: { port },
  ...extra,
});

const aTlsSecret = (): KubeObject => ({
  ...aSecret("tls", { "tls.crt": "-----BEGIN CERTIFICATE-----", "tls.key": "-----BEGIN PRIVATE KEY-----" }),
  type: "kubernetes.io/tls",
});

/** The child of `kind`, typed as the caller expects it (undefined at run time when absent). */
const find = <T>(children: readonly KubeObject[], kind: string): T => children.find((c) => c.kind === kind) as T;

describe.each(RELEASES)("networking.port below 1024 on the %s line", (release) => {
  const ports = [80, 443, 1023];
  const answers = ports.map((port) => {
    const request = aRequest(
      aParent(spec(port, { networking: { port, tls: { enabled: true, secretName: "tls" } } })),
      [],
      [aTlsSecret()],
    );
    const plain = aRequest(aParent(spec(port)), [], []);
    return {
      port,
      plain: sync(plain, { ...deps(), distributions: tableFor(release) }),
      tls: sync(request, { ...deps(), distributions: tableFor(release) }),
      request: plain,
    };
  });

  it.each(ports)("port %i: the Service serves it, the server listens on the default port", (port) => {
    const { plain } = answers.find((a) => a.port === port)!;
    const service = find<V1Service>(plain.children, "Service");
    const container = find<V1Deployment>(plain.children, "Deployment").spec!.template.spec!.containers[0]!;
    const env = Object.fromEntries(container.env!.map((e) => [e.name, e.value]));
    expect(service.spec!.ports).toEqual([expect.objectContaining({ port, targetPort: "http" })]);
    expect(container.ports).toEqual([expect.objectContaining({ name: "http", containerPort: DEFAULT_PORT })]);
    // The one port variable the line's launcher reads, and no other.
    const portEnv = LINE_STARTUP[release].portEnv;
    expect(Object.keys(env).filter((name) => /PORT$/.test(name))).toEqual([portEnv]);
    expect(env[portEnv]).toBe(String(DEFAULT_PORT));
    expect(find<V1NetworkPolicy>(plain.children, "NetworkPolicy").spec!.ingress![0]!.ports).toEqual([
      { protocol: "TCP", port: DEFAULT_PORT },
    ]);
    expect(plain.status.notes).toEqual(
      expect.arrayContaining([
        expect.stringContaining(`the Service serves port ${port} and forwards to the server on ${DEFAULT_PORT}`),
      ]),
    );
  });

  it("and the server of this line starts with each config (with and without TLS)", () => {
    const checks = answers.flatMap((a) => [
      serverCheckOf(a.plain, a.request.related, release),
      serverCheckOf(a.tls, a.request.related, release),
    ]);
    expect(checks.every((c) => c !== undefined)).toBe(true);
    expect(checkServerConfigs(checks.map((c) => c!))).toEqual(checks.map(() => []));
  });
});

describe("admission agrees: a port below 1024 is admitted with a warning, never refused", () => {
  const crd = committedCrd();
  it.each([1, 80, 443, 1023])("port %i passes the CRD schema and CEL rules, and /validate warns", (port) => {
    const object = {
      apiVersion: "llamastack.io/v1alpha2",
      kind: "LlamaStackDistribution",
      metadata: { name: "x" },
      spec: spec(port),
    };
    const schema = versionSchema(crd, "v1alpha2");
    expect(structuralErrors(schema, object)).toEqual([]);
    expect(celFailures(schema, object).failures).toEqual([]);
    const checked = validate(spec(port));
    expect(checked.errors).toEqual([]);
    expect(checked.warnings).toEqual([
      { path: "spec.networking.port", message: expect.stringContaining(`forwards to the server on ${DEFAULT_PORT}`) },
    ]);
  });

  it("a port from 1024 up is served as is, without a warning", () => {
    expect(validate(spec(1024)).warnings).toEqual([]);
  });
});
