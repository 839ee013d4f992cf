/**
 * networking.expose's edge fields through `validate()` (as /validate, `llsd validate` and /sync
 * judge them): the schema's shapes, the cross-field rules with their path and fix, and the
 * warning for bearer tokens over a plain Ingress. What the exposure kind reads is a hooks
 * setting, so each case says which kind the hooks run with.
 */
import type { ExposeWith } from "../../../lib/api/expose-types";
import type { ExposeObject } from "../../../lib/api/v1alpha2";
import { validate } from "../../../lib/api/validate";
import { aSpec } from "../../builders";

const HOST = "llama.example.com";
const specWith = (expose: ExposeObject | boolean, extra: object = {}) => aSpec({ networking: { expose }, ...extra });
const lines = (found: readonly { path: string; message: string }[]) => found.map((e) => `${e.path}: ${e.message}`);
const judged = (spec: object, exposeWith: ExposeWith = "ingress") => validate(spec, { exposeWith });
const KUBERNETES_AUTH = { auth: { kubernetes: {} } };

describe("networking.expose: accepted", () => {
  it.each<[string, ExposeObject, ExposeWith]>([
    ["a class and annotations", { className: "nginx", annotations: { "example.com/timeout": "60" } }, "ingress"],
    ["TLS from a Secret", { hostname: HOST, tls: { secretName: "llama-tls" } }, "ingress"],
    [
      "TLS from a ClusterIssuer",
      { hostname: HOST, tls: { issuer: { name: "letsencrypt", kind: "ClusterIssuer" } } },
      "ingress",
    ],
    [
      "TLS from an Issuer into a named Secret",
      { hostname: HOST, tls: { secretName: "s", issuer: { name: "ca" } } },
      "ingress",
    ],
    ["a Gateway", { parentRefs: [{ name: "edge", namespace: "gateways", sectionName: "https" }] }, "gateway"],
    [
      "a Gateway's listener by port, twice",
      {
        parentRefs: [
          { name: "edge", port: 443 },
          { name: "edge", port: 8443 },
        ],
      },
      "gateway",
    ],
    [
      "backend TLS with a CA",
      { parentRefs: [{ name: "edge" }], backendTLS: { hostname: HOST, caConfigMapName: "ca" } },
      "gateway",
    ],
    ["parentRefs the Ingress does not read", { parentRefs: [{ name: "edge" }] }, "ingress"],
  ])("%s", (_title, expose, exposeWith) => {
    expect(lines(judged(specWith(expose), exposeWith).errors)).toEqual([]);
  });

  it("asks a Gateway exposure for nothing while the server is not exposed", () => {
    expect(lines(judged(specWith({ enabled: false }), "gateway").errors)).toEqual([]);
  });
});

describe("networking.expose: refused, with the path and the fix", () => {
  it.each<[string, unknown, ExposeWith, string]>([
    [
      "TLS without a hostname",
      { tls: { secretName: "llama-tls" } },
      "ingress",
      "spec.networking.expose.tls: TLS at the edge needs the host name the certificate is for: set spec.networking.expose.hostname (e.g. llama.example.com), or remove tls",
    ],
    [
      "TLS naming no certificate",
      { hostname: HOST, tls: {} },
      "ingress",
      "spec.networking.expose.tls: name the certificate: set secretName (a kubernetes.io/tls Secret) or issuer (a cert-manager Issuer or ClusterIssuer that writes it), or remove tls",
    ],
    [
      "an annotation key the apiserver refuses",
      { annotations: { "bad key": "x" } },
      "ingress",
      'spec.networking.expose.annotations.bad key: "bad key" is not an annotation key the apiserver takes: write [prefix/]name, e.g. "example.com/timeout"',
    ],
    [
      "a Gateway exposure without parentRefs",
      true,
      "gateway",
      "spec.networking.expose.parentRefs: the hooks expose servers through the Gateway API (LLSD_EXPOSE_WITH=gateway), and an HTTPRoute must name its Gateway: set parentRefs: [{name: <gateway>, namespace: <its namespace>, sectionName: <an HTTPS listener>}], or give the hooks a default Gateway (LLSD_GATEWAY_PARENT=namespace/name[/sectionName]; docs/install.md#gateway-api)",
    ],
  ])("%s", (_title, expose, exposeWith, expected) => {
    expect(lines(judged(specWith(expose as ExposeObject), exposeWith).errors)).toEqual([expected]);
  });

  it.each<[string, unknown, string]>([
    [
      "an unknown issuer kind",
      { hostname: HOST, tls: { issuer: { name: "x", kind: "Certificate" } } },
      "spec.networking.expose.tls.issuer.kind",
    ],
    [
      "an issuer without a name",
      { hostname: HOST, tls: { issuer: { kind: "Issuer" } } },
      "spec.networking.expose.tls.issuer",
    ],
    ["an annotation that is not a string", { annotations: { "a/b": 1 } }, "spec.networking.expose.annotations.a/b"],
    ["an empty parentRefs", { parentRefs: [] }, "spec.networking.expose.parentRefs"],
    ["a parentRef without a name", { parentRefs: [{ namespace: "gateways" }] }, "spec.networking.expose.parentRefs[0]"],
    [
      "a parentRef port out of range",
      { parentRefs: [{ name: "g", port: 70000 }] },
      "spec.networking.expose.parentRefs[0].port",
    ],
    ["an unknown field", { hostname: HOST, ingressClassName: "nginx" }, "spec.networking.expose"],
  ])("the schema refuses %s", (_title, expose, path) => {
    const { errors } = judged(specWith(expose as ExposeObject));
    expect(errors.map((e) => e.path)).toContain(path);
  });
});

describe("networking.expose: an unknown field names the one meant", () => {
  it.each<[string, string]>([
    ["ingressClassName", 'did you mean "className"? (it becomes the Ingress\'s ingressClassName)'],
    ["IngressClass", 'did you mean "className"?'],
    ["tlsSecret", 'did you mean "tls: {secretName}"?'],
    ["secretName", 'did you mean "tls.secretName"?'],
    ["issuer", 'did you mean "tls.issuer"?'],
    ["clusterIssuer", 'did you mean "tls: {issuer: {name, kind: ClusterIssuer}}"?'],
    ["hosts", 'did you mean "hostname"?'],
    ["gateway", 'did you mean "parentRefs"?'],
    ["hostName", 'did you mean "hostname"?'],
    ["classname", 'did you mean "className"?'],
    ["parentRef", 'did you mean "parentRefs"?'],
    ["timeout", "remove it or check its spelling"],
  ])("%s", (field, hint) => {
    const { errors } = judged(specWith({ hostname: HOST, [field]: "x" }));
    expect(lines(errors)).toEqual([`spec.networking.expose: unknown field "${field}"; ${hint}`]);
  });

  it("only under networking.expose: another object's field of that name is not pointed there", () => {
    const { errors } = validate({ ...aSpec(), workload: { ingressClassName: "x" } });
    expect(lines(errors)).toEqual(['spec.workload: unknown field "ingressClassName"; remove it or check its spelling']);
  });
});

describe("networking.expose: bearer tokens over a plain Ingress", () => {
  const WARNING =
    "spec.networking.expose: spec.auth is set but the Ingress has no TLS: bearer tokens cross the cluster edge in clear text; set hostname and tls (secretName, or issuer for cert-manager) (docs/security.md)";

  it.each<[string, object, ExposeWith, string[]]>([
    ["auth, an Ingress without TLS", specWith({ hostname: HOST }, KUBERNETES_AUTH), "ingress", [WARNING]],
    ["auth, exposed with true", specWith(true, KUBERNETES_AUTH), "ingress", [WARNING]],
    [
      "auth, an Ingress with TLS",
      specWith({ hostname: HOST, tls: { secretName: "t" } }, KUBERNETES_AUTH),
      "ingress",
      [],
    ],
    ["auth, a Route (it terminates TLS itself)", specWith(true, KUBERNETES_AUTH), "route", []],
    [
      "auth, a Gateway (its listener decides; a status note says so)",
      specWith({ parentRefs: [{ name: "g" }] }, KUBERNETES_AUTH),
      "gateway",
      [],
    ],
    ["auth, not exposed", specWith(false, KUBERNETES_AUTH), "ingress", []],
    ["no auth (the exposed-without-auth warning's case)", specWith({ hostname: HOST }), "ingress", []],
  ])("%s", (_title, spec, exposeWith, expected) => {
    const { warnings } = judged(spec, exposeWith);
    expect(lines(warnings).filter((w) => w.includes("TLS"))).toEqual(expected);
  });
});
