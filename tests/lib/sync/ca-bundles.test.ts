/**
 * networking.tls.caBundle as a list of ConfigMaps: each is asked for, read and checked, every
 * certificate goes into the one managed bundle (one file, SSL_CERT_FILE), and an edit of any of
 * them rolls the pods. The single-object form keeps its bundle and hash (tests/golden/sync/
 * networking-tls.json and the upgrade test hold them too).
 */
import { X509Certificate } from "node:crypto";
import type { V1Deployment } from "@kubernetes/client-node";
import { customize } from "../../../lib/sync/customize";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { aConfigMap, aParent, aRequest, deps, NS, observedFrom } from "../../sync-builders";
import { only } from "../children/models";
import { INTERMEDIATE_CA, ODH_CA, ROOT_CA, RSA_CA } from "./certificates";

type CaEntry = { configMapName: string; configMapKeys?: string[] };
const caSpec = (caBundle: CaEntry | CaEntry[]) => ({
  distribution: { name: "starter" },
  networking: { tls: { caBundle } },
});
const TWO: CaEntry[] = [{ configMapName: "corp-ca" }, { configMapName: "team-ca", configMapKeys: ["a.crt", "b.crt"] }];
const corp = (pem: string) => aConfigMap("corp-ca", { "ca-bundle.crt": pem });
const team = (a: string, b: string) => aConfigMap("team-ca", { "a.crt": a, "b.crt": b });
const syncOf = (spec: object, related: KubeObject[], children: KubeObject[] = []) =>
  sync(aRequest(aParent(spec), children, related), deps());
type Cond = { type: string; reason: string; message: string };
const condition = (r: SyncResponse) => (r.status.conditions as Cond[]).find((c) => c.type === "ConfigGenerated")!;
const bundleOf = (r: SyncResponse): string =>
  (r.children.find((c) => c.metadata.name === "demo-ca-bundle")?.data as Record<string, string>)["ca-bundle.crt"]!;
const subjects = (pem: string): string[] =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].map(
    (m) => new X509Certificate(m[0]).subject,
  );
const pod = (r: SyncResponse) => (only(r.children, "Deployment") as unknown as V1Deployment).spec!.template;
const hash = (r: SyncResponse) => pod(r).metadata!.annotations!["llamastack.io/ca-bundle-hash"];

describe("several CA ConfigMaps", () => {
  const both = syncOf(caSpec(TWO), [corp(ROOT_CA), team(INTERMEDIATE_CA, RSA_CA)]);

  it("joins every ConfigMap's certificates, in spec order, into the one bundle the pod mounts", () => {
    expect(both.status.phase).toBe("Pending");
    expect(subjects(bundleOf(both))).toEqual(
      [ROOT_CA, INTERMEDIATE_CA, RSA_CA].map((c) => new X509Certificate(c).subject),
    );
    const spec = pod(both).spec!;
    expect(spec.volumes!.filter((v) => v.configMap?.name === "demo-ca-bundle")).toHaveLength(1);
    expect(spec.containers[0]!.env).toEqual(
      expect.arrayContaining([{ name: "SSL_CERT_FILE", value: "/etc/ssl/certs/ca-bundle/ca-bundle.crt" }]),
    );
  });

  it("hashes the bundle as the single form does: the same certificates in one ConfigMap give the same hash", () => {
    const single = syncOf(caSpec({ configMapName: "corp-ca" }), [corp(`${ROOT_CA}${INTERMEDIATE_CA}${RSA_CA}`)]);
    expect([hash(both), bundleOf(both)]).toEqual([hash(single), bundleOf(single)]);
  });

  it.each([
    ["the first ConfigMap", [corp(ODH_CA), team(INTERMEDIATE_CA, RSA_CA)]],
    ["the second ConfigMap's first key", [corp(ROOT_CA), team(ODH_CA, RSA_CA)]],
    ["the second ConfigMap's second key", [corp(ROOT_CA), team(INTERMEDIATE_CA, ODH_CA)]],
  ])("rolls the pods when %s changes", (_what, related) => {
    expect(hash(syncOf(caSpec(TWO), related))).not.toBe(hash(both));
  });

  it("does not roll the pods when a ConfigMap changes nothing but its text around the certificates", () => {
    expect(hash(syncOf(caSpec(TWO), [corp(`\n${ROOT_CA}\n`), team(INTERMEDIATE_CA, RSA_CA)]))).toBe(hash(both));
  });

  it.each([
    [
      "a missing ConfigMap",
      [corp(ROOT_CA)],
      "ConfigMapNotFound",
      "spec.networking.tls.caBundle[1].configMapName: ConfigMap not found: team-ca",
    ],
    [
      "a missing key",
      [corp(ROOT_CA), aConfigMap("team-ca", { "a.crt": INTERMEDIATE_CA })],
      "ConfigMapNotFound",
      'spec.networking.tls.caBundle[1].configMapName: ConfigMap team-ca has no key "b.crt"',
    ],
    [
      "a bad certificate",
      [corp(ROOT_CA), team(INTERMEDIATE_CA, "no certificate here\n")],
      "InvalidCABundle",
      'spec.networking.tls.caBundle[1].configMapKeys[1]: ConfigMap team-ca key "b.crt": holds no PEM CERTIFICATE block',
    ],
  ])(
    "given %s in the second one, fails at its field path and keeps the running children",
    (_w, related, reason, message) => {
      const observed = observedFrom(both.children);
      const r = syncOf(caSpec(TWO), related, observed);
      expect(condition(r)).toEqual(expect.objectContaining({ reason, message: expect.stringContaining(message) }));
      const ids = (list: readonly KubeObject[]) => list.map((x) => `${x.kind}/${x.metadata.name}`).sort();
      expect(ids(r.children)).toEqual(ids(observed));
    },
  );

  it("fails when no listed key of any ConfigMap holds a certificate, naming them all", () => {
    const r = syncOf(caSpec(TWO), [corp(" \n"), team("", "\n")]);
    expect(condition(r)).toEqual(
      expect.objectContaining({
        reason: "InvalidCABundle",
        message:
          'spec.networking.tls.caBundle: ConfigMap corp-ca keys "ca-bundle.crt" and ConfigMap team-ca keys "a.crt", "b.crt" hold no certificate; put PEM-encoded CA certificates there or remove them from caBundle',
      }),
    );
  });

  it("is asked for whole by the customize hook: every ConfigMap of the list", () => {
    const rules = customize({ parent: aParent(caSpec(TWO)) }).relatedResources;
    expect(rules).toContainEqual({
      apiVersion: "v1",
      resource: "configmaps",
      namespace: NS,
      names: ["corp-ca", "odh-trusted-ca-bundle", "team-ca"],
    });
  });
});
