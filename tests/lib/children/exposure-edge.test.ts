/**
 * networking.expose's edge fields in the exposing children: the Ingress's class, TLS and
 * annotations; the Gateway API HTTPRoute and, for a TLS server, its BackendTLSPolicy. Every
 * child is checked against its real schema (kubernetes-models, @kubernetes-models/gateway-api).
 */
import type { ExposeObject } from "../../../lib/api/v1alpha2";
import { buildBackendTlsPolicy } from "../../../lib/children/backend-tls-policy";
import { buildHttpRoute } from "../../../lib/children/http-route";
import { buildIngress } from "../../../lib/children/ingress";
import { buildRoute } from "../../../lib/children/route";
import type { KubeObject } from "../../../lib/wire/metacontroller";
import { gatewayApiErrors } from "../../gateway-api-models";
import { aContext, NAMESPACE } from "./context-builder";
import { validateChild } from "./models";

const HOST = "llama.example.com";
const TLS_SERVER = { enabled: true, secretName: "demo-tls" };
const GATEWAY = [{ name: "edge", namespace: "gateways", sectionName: "https" }];
const asObject = (o: unknown) => o as KubeObject;

describe("buildIngress() with the edge fields", () => {
  it.each<[string, ExposeObject, object, object | undefined]>([
    ["a class", { className: "nginx" }, { ingressClassName: "nginx" }, undefined],
    [
      "TLS from a Secret",
      { hostname: HOST, tls: { secretName: "edge-tls" } },
      { tls: [{ hosts: [HOST], secretName: "edge-tls" }] },
      undefined,
    ],
    [
      "TLS from an Issuer, into the default Secret",
      { hostname: HOST, tls: { issuer: { name: "ca" } } },
      { tls: [{ hosts: [HOST], secretName: "demo-ingress-tls" }] },
      { "cert-manager.io/issuer": "ca" },
    ],
    [
      "TLS from a ClusterIssuer, into a named Secret, with a class",
      { hostname: HOST, className: "nginx", tls: { secretName: "s", issuer: { name: "le", kind: "ClusterIssuer" } } },
      { ingressClassName: "nginx", tls: [{ hosts: [HOST], secretName: "s" }] },
      { "cert-manager.io/cluster-issuer": "le" },
    ],
    ["annotations", { annotations: { "example.com/timeout": "60" } }, {}, { "example.com/timeout": "60" }],
  ])("given %s, sets them and keeps the rule", (_title, expose, specFields, annotations) => {
    const ingress = buildIngress(aContext({ spec: { networking: { expose } } }));
    validateChild(asObject(ingress));
    expect(ingress?.spec).toEqual({ ...specFields, rules: [expect.objectContaining({ http: expect.anything() })] });
    expect(ingress?.metadata?.annotations).toEqual(annotations);
  });

  it("given a TLS server and annotations, keeps the hooks' backend annotation unless the user's replaces it", () => {
    const annotated = (annotations: Record<string, string>) =>
      buildIngress(aContext({ spec: { networking: { expose: { annotations }, tls: TLS_SERVER } } }))?.metadata
        ?.annotations;
    expect(annotated({ a: "1" })).toEqual({ "nginx.ingress.kubernetes.io/backend-protocol": "HTTPS", a: "1" });
    expect(annotated({ "nginx.ingress.kubernetes.io/backend-protocol": "GRPCS" })).toEqual({
      "nginx.ingress.kubernetes.io/backend-protocol": "GRPCS",
    });
  });

  it("gives a Route the annotations but not the issuer's (cert-manager reads Ingresses)", () => {
    const route = buildRoute(
      aContext({
        exposeWith: "route",
        spec: { networking: { expose: { hostname: HOST, annotations: { a: "1" }, tls: { issuer: { name: "ca" } } } } },
      }),
    );
    expect(route?.metadata.annotations).toEqual({ a: "1" });
    expect(route?.spec.tls).toEqual({ termination: "edge", insecureEdgeTerminationPolicy: "Redirect" });
  });
});

describe("buildHttpRoute()", () => {
  it.each<[string, ExposeObject, object]>([
    [
      "a Gateway and a hostname",
      { hostname: HOST, parentRefs: GATEWAY },
      { parentRefs: GATEWAY, hostnames: [HOST], rules: [{ backendRefs: [{ name: "demo-service", port: 8321 }] }] },
    ],
    [
      "two listeners and no hostname",
      {
        parentRefs: [
          { name: "edge", port: 443 },
          { name: "edge", port: 8443 },
        ],
      },
      {
        parentRefs: [
          { name: "edge", port: 443 },
          { name: "edge", port: 8443 },
        ],
        rules: [{ backendRefs: [{ name: "demo-service", port: 8321 }] }],
      },
    ],
  ])("given %s, routes everything to the Service's port", (_title, expose, spec) => {
    const route = buildHttpRoute(aContext({ exposeWith: "gateway", spec: { networking: { expose } } }));
    validateChild(asObject(route));
    expect(route?.metadata.name).toBe("demo-route");
    expect(route?.spec).toEqual(spec);
  });

  it.each<[string, ExposeObject | boolean, "ingress" | "route" | "gateway"]>([
    ["the hooks expose through an Ingress", { parentRefs: GATEWAY }, "ingress"],
    ["the hooks expose through a Route", { parentRefs: GATEWAY }, "route"],
    ["not exposed", { enabled: false, parentRefs: GATEWAY }, "gateway"],
    ["no parentRefs (validation refuses it first)", true, "gateway"],
  ])("builds none when %s", (_title, expose, exposeWith) => {
    expect(buildHttpRoute(aContext({ exposeWith, spec: { networking: { expose } } }))).toBeUndefined();
  });
});

describe("buildBackendTlsPolicy()", () => {
  it.each<[string, ExposeObject, object]>([
    [
      "no backendTLS: the Service's DNS name and the Gateway's well-known CAs",
      { parentRefs: GATEWAY },
      { hostname: `demo-service.${NAMESPACE}.svc`, wellKnownCACertificates: "System" },
    ],
    [
      "a CA ConfigMap and the certificate's name",
      { parentRefs: GATEWAY, backendTLS: { hostname: HOST, caConfigMapName: "llama-ca" } },
      { hostname: HOST, caCertificateRefs: [{ group: "", kind: "ConfigMap", name: "llama-ca" }] },
    ],
  ])("given %s, checks the server's certificate", (_title, expose, validation) => {
    const policy = buildBackendTlsPolicy(
      aContext({ exposeWith: "gateway", spec: { networking: { expose, tls: TLS_SERVER } } }),
    );
    validateChild(asObject(policy));
    expect(policy?.metadata.name).toBe("demo-backend-tls");
    expect(policy?.spec).toEqual({
      targetRefs: [{ group: "", kind: "Service", name: "demo-service", sectionName: "http" }],
      validation,
    });
  });

  it("builds none for a server that speaks plain HTTP", () => {
    const ctx = aContext({ exposeWith: "gateway", spec: { networking: { expose: { parentRefs: GATEWAY } } } });
    expect(buildBackendTlsPolicy(ctx)).toBeUndefined();
  });
});

describe("the Gateway API schemas", () => {
  // An honest check: the child process does refuse what the CRDs refuse.
  it("refuse a route whose hostname the Gateway API does not take", () => {
    const route = buildHttpRoute(
      aContext({
        exposeWith: "gateway",
        spec: { networking: { expose: { hostname: "Bad_Host", parentRefs: GATEWAY } } },
      }),
    );
    expect(gatewayApiErrors([asObject(route)])[0]).toMatch(/hostnames\/0 must match pattern/);
  });
});
