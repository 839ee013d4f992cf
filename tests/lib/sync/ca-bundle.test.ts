/**
 * networking.tls.caBundle (+ the namespace's odh-trusted-ca-bundle) → the managed ConfigMap
 * `<name>-ca-bundle`, mounted with SSL_CERT_FILE, as the Go operator does. Every certificate
 * is checked as X.509; a bad one fails the sync with the key, the certificate's number and the
 * parse error, never the PEM; a bad key of the ODH bundle is skipped with a note.
 */
import { X509Certificate } from "node:crypto";
import type { V1Deployment } from "@kubernetes/client-node";
import { certificatesIn, planCaBundle, type CaBundleLimits } from "../../../lib/sync/ca-bundle";
import { normalize } from "../../../lib/api/normalize";
import { sync } from "../../../lib/sync/sync";
import type { KubeObject, SyncResponse } from "../../../lib/wire/metacontroller";
import { aConfigMap, aParent, aRequest, deps, NS, objectMap, observedFrom, stamped } from "../../sync-builders";
import { CACHE_BUDGET_MB, setCachePolicy } from "../../../lib/caches";
import { only, validateChild } from "../children/models";
import { bodyOf, certificateBlock, INTERMEDIATE_CA, ODH_CA, ROOT_CA, RSA_CA } from "./certificates";

const caSpec = (caBundle: { configMapName: string; configMapKeys?: string[] }) => ({
  distribution: { name: "starter" },
  networking: { tls: { caBundle } },
});
const corpCa = (data: Record<string, string>) => aConfigMap("corp-ca", data);
const odh = (data: Record<string, string>) => aConfigMap("odh-trusted-ca-bundle", data);
const syncOf = (spec: object, related: KubeObject[], children: KubeObject[] = []) =>
  sync(aRequest(aParent(spec), children, related), deps());
type Cond = { type: string; status: string; reason: string; message: string };
const condition = (r: SyncResponse, type: string) => (r.status.conditions as Cond[]).find((c) => c.type === type);
const bundleOf = (r: SyncResponse): string | undefined =>
  (r.children.find((c) => c.metadata.name === "demo-ca-bundle")?.data as { "ca-bundle.crt"?: string } | undefined)?.[
    "ca-bundle.crt"
  ];
const subjects = (pem: string): string[] =>
  [...pem.matchAll(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g)].map(
    (m) => new X509Certificate(m[0]).subject,
  );

describe("the managed CA bundle", () => {
  it("joins the listed keys' certificates into <name>-ca-bundle, mounts it and sets SSL_CERT_FILE", () => {
    const r = syncOf(caSpec({ configMapName: "corp-ca", configMapKeys: ["ca-bundle.crt", "extra.crt"] }), [
      corpCa({ "ca-bundle.crt": ROOT_CA, "extra.crt": `${INTERMEDIATE_CA}\n${RSA_CA}`, unused: "not read" }),
    ]);
    expect(r.status.phase).toBe("Pending");
    const configMap = r.children.find((c) => c.metadata.name === "demo-ca-bundle")!;
    validateChild(configMap);
    expect(configMap.metadata.labels).toEqual(
      expect.objectContaining({
        app: "llama-stack",
        "app.kubernetes.io/instance": "demo",
        "app.kubernetes.io/managed-by": "llsd-hooks",
      }),
    );
    expect(Object.keys(configMap.data as object)).toEqual(["ca-bundle.crt"]);
    expect(subjects(bundleOf(r)!)).toEqual([
      new X509Certificate(ROOT_CA).subject,
      new X509Certificate(INTERMEDIATE_CA).subject,
      new X509Certificate(RSA_CA).subject,
    ]);

    const deployment = only(r.children, "Deployment") as unknown as V1Deployment;
    const pod = deployment.spec!.template.spec!;
    expect(pod.volumes).toContainEqual({
      name: "ca-bundle",
      configMap: { name: "demo-ca-bundle", items: [{ key: "ca-bundle.crt", path: "ca-bundle.crt" }] },
    });
    expect(pod.containers[0]!.volumeMounts).toContainEqual({
      name: "ca-bundle",
      mountPath: "/etc/ssl/certs/ca-bundle",
      readOnly: true,
    });
    expect(pod.containers[0]!.env).toContainEqual({
      name: "SSL_CERT_FILE",
      value: "/etc/ssl/certs/ca-bundle/ca-bundle.crt",
    });
    expect(deployment.spec!.template.metadata!.annotations!["llamastack.io/ca-bundle-hash"]).toMatch(/^[0-9a-f]{64}$/);
  });

  it("re-encodes each certificate as clean PEM (64-column base64, no text around it), one blank line apart", () => {
    const messy = `Root of Example Corp, added 2026-01\r\n${ROOT_CA.replace(/\n/g, "\r\n")}\n# trailing comment\n`;
    const r = syncOf(caSpec({ configMapName: "corp-ca" }), [corpCa({ "ca-bundle.crt": `${messy}${INTERMEDIATE_CA}` })]);
    expect(bundleOf(r)).toBe(`${ROOT_CA}\n${INTERMEDIATE_CA}`);
  });

  it("rolls the pods when the certificates change, and only then", () => {
    const hash = (r: SyncResponse) =>
      ((only(r.children, "Deployment") as unknown as V1Deployment).spec!.template.metadata!.annotations ?? {})[
        "llamastack.io/ca-bundle-hash"
      ];
    const a = syncOf(caSpec({ configMapName: "corp-ca" }), [corpCa({ "ca-bundle.crt": ROOT_CA })]);
    const same = syncOf(caSpec({ configMapName: "corp-ca" }), [corpCa({ "ca-bundle.crt": `\n\n${ROOT_CA}` })]);
    const other = syncOf(caSpec({ configMapName: "corp-ca" }), [corpCa({ "ca-bundle.crt": RSA_CA })]);
    expect(hash(same)).toBe(hash(a));
    expect(hash(other)).not.toBe(hash(a));
  });

  it.each([
    [
      "a body that is not base64",
      certificateBlock("REPLACE-ME-with-your-base64-encoded-CA-certificate"),
      "certificate 1: the PEM body is not base64",
    ],
    [
      "bytes that are not a certificate",
      certificateBlock(Buffer.from("definitely not DER".repeat(4)).toString("base64")),
      "certificate 1 is not a valid X.509 certificate (its DER encoding does not parse)",
    ],
    [
      "a truncated second certificate",
      `${ROOT_CA}${certificateBlock(bodyOf(INTERMEDIATE_CA).slice(0, 200))}`,
      "certificate 2 is not a valid X.509 certificate",
    ],
    ["text without any certificate", "just some notes\n", "holds no PEM CERTIFICATE block"],
    [
      "only a public key",
      "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----\n",
      "holds no PEM CERTIFICATE block",
    ],
  ])(
    "given %s, fails with the key and the certificate's number, never the PEM, and keeps the running children",
    (_title, text, problem) => {
      const good = syncOf(caSpec({ configMapName: "corp-ca", configMapKeys: ["ca-bundle.crt", "extra.crt"] }), [
        corpCa({ "ca-bundle.crt": ROOT_CA, "extra.crt": INTERMEDIATE_CA }),
      ]);
      const observed = observedFrom(good.children);
      const r = syncOf(
        caSpec({ configMapName: "corp-ca", configMapKeys: ["ca-bundle.crt", "extra.crt"] }),
        [corpCa({ "ca-bundle.crt": ROOT_CA, "extra.crt": text })],
        observed,
      );
      expect(r.status.phase).toBe("Failed");
      const c = condition(r, "ConfigGenerated")!;
      expect(c.reason).toBe("InvalidCABundle");
      expect(c.message).toContain('spec.networking.tls.caBundle.configMapKeys[1]: ConfigMap corp-ca key "extra.crt": ');
      expect(c.message).toContain(problem);
      expect(JSON.stringify(r.status)).not.toContain(bodyOf(ROOT_CA).slice(0, 40));
      expect(JSON.stringify(r.status)).not.toContain("REPLACE-ME");
      const ids = (list: readonly KubeObject[]) => list.map((x) => `${x.kind}/${x.metadata.name}`).sort();
      expect(ids(r.children)).toEqual(ids(observed));
    },
  );

  it("accepts an empty key (it adds nothing) but fails when no key holds a certificate", () => {
    const some = syncOf(caSpec({ configMapName: "corp-ca", configMapKeys: ["ca-bundle.crt", "empty.crt"] }), [
      corpCa({ "ca-bundle.crt": ROOT_CA, "empty.crt": "  \n" }),
    ]);
    expect(some.status.phase).toBe("Pending");
    const none = syncOf(caSpec({ configMapName: "corp-ca" }), [corpCa({ "ca-bundle.crt": "\n" })]);
    expect(condition(none, "ConfigGenerated")).toEqual(
      expect.objectContaining({
        reason: "InvalidCABundle",
        message:
          'spec.networking.tls.caBundle.configMapName: ConfigMap corp-ca keys "ca-bundle.crt" hold no certificate; put PEM-encoded CA certificates there or remove caBundle',
      }),
    );
  });

  it("reports a missing ConfigMap or key like every other reference", () => {
    expect(condition(syncOf(caSpec({ configMapName: "corp-ca" }), []), "ConfigGenerated")).toEqual(
      expect.objectContaining({
        reason: "ConfigMapNotFound",
        message: expect.stringMatching(/^spec.networking.tls.caBundle.configMapName: ConfigMap not found: corp-ca/),
      }),
    );
    expect(
      condition(syncOf(caSpec({ configMapName: "corp-ca" }), [corpCa({ "other.crt": ROOT_CA })]), "ConfigGenerated")
        ?.message,
    ).toContain('ConfigMap corp-ca has no key "ca-bundle.crt" (it has "other.crt")');
  });
});

describe("the namespace's odh-trusted-ca-bundle", () => {
  it("adds every key's certificates after the listed ones, writes a certificate both hold once, and skips bad keys with a note", () => {
    const r = syncOf(caSpec({ configMapName: "corp-ca" }), [
      corpCa({ "ca-bundle.crt": ROOT_CA }),
      odh({ "odh-ca-bundle.crt": "", "ca-bundle.crt": `${ODH_CA}${ROOT_CA}`, "broken.crt": certificateBlock("QUJD") }),
    ]);
    expect(r.status.phase).toBe("Pending");
    expect(subjects(bundleOf(r)!)).toEqual([new X509Certificate(ROOT_CA).subject, new X509Certificate(ODH_CA).subject]);
    expect(r.status.notes).toEqual([
      'ConfigMap odh-trusted-ca-bundle key "broken.crt" skipped: certificate 1 is not a valid X.509 certificate (its DER encoding does not parse)',
    ]);
  });

  it("makes a bundle on its own when the spec asks for none", () => {
    const r = syncOf({ distribution: { name: "starter" } }, [odh({ "ca-bundle.crt": ODH_CA })]);
    expect(subjects(bundleOf(r)!)).toEqual([new X509Certificate(ODH_CA).subject]);
    expect(
      (only(r.children, "Deployment") as unknown as V1Deployment).spec!.template.spec!.containers[0]!.env,
    ).toContainEqual({ name: "SSL_CERT_FILE", value: "/etc/ssl/certs/ca-bundle/ca-bundle.crt" });
  });

  it("without usable keys, makes no bundle and fails nothing", () => {
    const r = syncOf({ distribution: { name: "starter" } }, [odh({ junk: "nothing here" })]);
    expect(r.status.phase).toBe("Pending");
    expect(bundleOf(r)).toBeUndefined();
    expect(JSON.stringify(r.children)).not.toContain("SSL_CERT_FILE");
    expect(r.status.notes).toEqual([
      'ConfigMap odh-trusted-ca-bundle key "junk" skipped: holds no PEM CERTIFICATE block (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)',
    ]);
  });
});

describe("limits", () => {
  const plan = (data: Record<string, string>, limits: Partial<CaBundleLimits> = {}) =>
    planCaBundle(
      {
        tls: normalize(caSpec({ configMapName: "corp-ca" })).networking.tls,
        related: objectMap([corpCa(data)]),
        namespace: NS,
      },
      { bytes: 10 * 1024 * 1024, certificates: 1000, configMapBytes: 1024 * 1024, ...limits },
    );

  it("refuses more than 1000 certificates (duplicates count: they were read)", () => {
    expect(plan({ "ca-bundle.crt": ROOT_CA.repeat(1000) })).toEqual(
      expect.objectContaining({ bundle: expect.objectContaining({ certificates: 1 }) }),
    );
    expect(plan({ "ca-bundle.crt": ROOT_CA.repeat(1001) })).toEqual({
      failure: {
        type: "ConfigGenerated",
        reason: "CABundleTooLarge",
        errors: [
          {
            path: "spec.networking.tls.caBundle.configMapKeys[0]",
            message: "the CA bundle holds more than 1000 certificates; trust fewer CAs",
          },
        ],
      },
    });
  });

  it("refuses more bytes of certificates than the limit", () => {
    expect(plan({ "ca-bundle.crt": `${ROOT_CA}${RSA_CA}` }, { bytes: 1500 })).toEqual(
      expect.objectContaining({
        failure: expect.objectContaining({
          reason: "CABundleTooLarge",
          errors: [
            expect.objectContaining({ message: "the CA certificates add up to more than 1500 bytes; trust fewer CAs" }),
          ],
        }),
      }),
    );
  });

  it("refuses a bundle larger than a ConfigMap can hold", () => {
    const r = plan({ "ca-bundle.crt": `${ROOT_CA}${RSA_CA}` }, { configMapBytes: 1000 });
    expect(r).toEqual({
      failure: expect.objectContaining({
        errors: [
          expect.objectContaining({
            message: expect.stringMatching(
              /^the CA bundle would take 19\d\d bytes, more than a ConfigMap holds \(1000\)/,
            ),
          }),
        ],
      }),
    });
  });
});

describe("certificatesIn()", () => {
  it("gives the same answer for the same text, and skips non-certificate PEM blocks", () => {
    const text = `-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n${ROOT_CA}`;
    const first = certificatesIn(text);
    expect(first).toEqual({ ok: true, certificates: [{ base64: bodyOf(ROOT_CA), pem: ROOT_CA }] });
    expect(certificatesIn(text)).toEqual(first);
  });
});

describe("parsed certificates kept by ConfigMap version", () => {
  const spec = caSpec({ configMapName: "corp-ca" });
  const versioned = (pem: string, resourceVersion: string) =>
    stamped(corpCa({ "ca-bundle.crt": pem }), resourceVersion);
  const broken = certificateBlock(Buffer.from("definitely not DER".repeat(4)).toString("base64"));

  // The apiserver gives each version of an object its own resourceVersion: every case its own.
  it.each([
    { change: "a good bundle replaced by a bad one", before: ROOT_CA, after: broken, phase: "Failed", version: 10 },
    { change: "a bad bundle replaced by a good one", before: broken, after: ROOT_CA, phase: "Pending", version: 20 },
    { change: "one CA replaced by another", before: ROOT_CA, after: RSA_CA, phase: "Pending", version: 30 },
  ])("reads the new text when the ConfigMap changes ($change: a new resourceVersion)", (c) => {
    syncOf(spec, [versioned(c.before, String(c.version))]);
    const r = syncOf(spec, [versioned(c.after, String(c.version + 1))]);
    expect(r.status.phase).toBe(c.phase);
    if (c.phase === "Pending") expect(subjects(bundleOf(r)!)).toEqual([new X509Certificate(c.after).subject]);
  });

  /** The same ConfigMap in namespace `team-b`, read by a parent of that namespace. */
  const inTeamB = (o: KubeObject): KubeObject => ({ ...o, metadata: { ...o.metadata, namespace: "team-b" } });
  it.each([
    ["edited under the same resourceVersion (an etcd restore hands versions out again)", (o: KubeObject) => o],
    ["in another namespace with the same uid and resourceVersion (a copy)", inTeamB],
  ])("reads the text of a ConfigMap %s", (_, where) => {
    syncOf(spec, [versioned(ROOT_CA, "50")]);
    const parent = where(aParent(spec));
    const r = sync(aRequest(parent, [], [where(versioned(RSA_CA, "50"))]), deps());
    expect(subjects(bundleOf(r)!)).toEqual([new X509Certificate(RSA_CA).subject]);
  });

  it("reads the text every time for a ConfigMap without uid and resourceVersion (not from the apiserver)", () => {
    syncOf(spec, [corpCa({ "ca-bundle.crt": ROOT_CA })]);
    const r = syncOf(spec, [corpCa({ "ca-bundle.crt": RSA_CA })]);
    expect(subjects(bundleOf(r)!)).toEqual([new X509Certificate(RSA_CA).subject]);
  });

  it("answers the same bundle from a kept parse as from a fresh one", () => {
    const related = [versioned(`${ROOT_CA}${INTERMEDIATE_CA}`, "40")];
    const fresh = syncOf(spec, related);
    const kept = syncOf(spec, related);
    setCachePolicy(CACHE_BUDGET_MB * 2 ** 20, ["CA certificates"]);
    try {
      expect(bundleOf(kept)).toBe(bundleOf(syncOf(spec, related)));
    } finally {
      setCachePolicy(CACHE_BUDGET_MB * 2 ** 20);
    }
    expect(bundleOf(kept)).toBe(bundleOf(fresh));
  });
});
