/** Ingress (vanilla clusters) and Route (OpenShift overlay): one of them, only when exposed. */
import { buildIngress } from "../../../lib/children/ingress";
import { buildRoute } from "../../../lib/children/route";
import { names } from "../../../lib/names";
import { aContext, NAME } from "./context-builder";

describe("buildIngress()", () => {
  it("given expose without a hostname, routes / (Prefix) to the Service's http port, no host, no class", () => {
    const ingress = buildIngress(aContext({ spec: { networking: { expose: true } } }));
    expect(ingress?.metadata?.name).toBe(names.ingress(NAME));
    expect(ingress?.metadata?.annotations).toBeUndefined();
    expect(ingress?.spec).toEqual({
      rules: [
        {
          http: {
            paths: [
              {
                path: "/",
                pathType: "Prefix",
                backend: { service: { name: names.service(NAME), port: { name: "http" } } },
              },
            ],
          },
        },
      ],
    });
  });

  it("given a hostname, sets the rule's host", () => {
    const ingress = buildIngress(aContext({ spec: { networking: { expose: { hostname: "llama.example.com" } } } }));
    expect(ingress?.spec?.rules?.[0]?.host).toBe("llama.example.com");
  });

  it("given TLS, tells ingress-nginx the backend speaks HTTPS", () => {
    const ingress = buildIngress(
      aContext({ spec: { networking: { expose: true, tls: { enabled: true, secretName: "t" } } } }),
    );
    expect(ingress?.metadata?.annotations).toEqual({ "nginx.ingress.kubernetes.io/backend-protocol": "HTTPS" });
  });

  it.each([
    ["expose absent", {}, "ingress"],
    ["expose false", { expose: false }, "ingress"],
    ["expose { enabled: false }", { expose: { enabled: false, hostname: "x" } }, "ingress"],
    ["the Route overlay", { expose: true }, "route"],
  ] as const)("given %s, builds no Ingress", (_title, networking, exposeWith) => {
    expect(buildIngress(aContext({ spec: { networking }, exposeWith }))).toBeUndefined();
  });
});

describe("buildRoute()", () => {
  it.each([
    ["plain serving", { enabled: false }, { termination: "edge", insecureEdgeTerminationPolicy: "Redirect" }],
    ["TLS serving", { enabled: true, secretName: "t" }, { termination: "passthrough" }],
  ])("given %s, sends to the Service's http port with tls %j", (_title, tls, routeTls) => {
    const route = buildRoute(
      aContext({ exposeWith: "route", spec: { networking: { expose: { hostname: "llama.apps.example.com" }, tls } } }),
    );
    expect(route).toMatchObject({
      apiVersion: "route.openshift.io/v1",
      kind: "Route",
      metadata: { name: names.route(NAME) },
    });
    expect(route?.spec).toEqual({
      host: "llama.apps.example.com",
      to: { kind: "Service", name: names.service(NAME) },
      port: { targetPort: "http" },
      tls: routeTls,
    });
  });

  it("given no hostname, leaves host to the router", () => {
    expect(
      buildRoute(aContext({ exposeWith: "route", spec: { networking: { expose: true } } }))?.spec,
    ).not.toHaveProperty("host");
  });

  it.each([
    ["not exposed", {}, "route"],
    ["vanilla clusters", { expose: true }, "ingress"],
  ] as const)("given %s, builds no Route", (_title, networking, exposeWith) => {
    expect(buildRoute(aContext({ spec: { networking }, exposeWith }))).toBeUndefined();
  });
});
