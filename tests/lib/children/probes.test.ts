/**
 * The server container's probes against what the server does (tests/fixtures/server-health/facts.json,
 * read from each line's source at its tag and from the real 1.3.0 server): every probe asks a
 * route the line serves without a token, whatever `spec.auth` says, and the server's answer there
 * is one the kubelet counts as a success (HTTP 200–399).
 */
import type { V1Container, V1Probe } from "@kubernetes/client-node";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDeployment } from "../../../lib/children/deployment";
import { OPEN_ROUTES } from "../../../lib/config/auth";
import type { Release } from "../../../lib/distributions/table";
import { aContext } from "./context-builder";

interface Facts {
  readonly lines: { readonly [line: string]: { readonly public: readonly string[] } };
  readonly observed: readonly { readonly config: string; readonly request: string; readonly status: number }[];
}

const FACTS = JSON.parse(
  readFileSync(join(__dirname, "..", "..", "fixtures", "server-health", "facts.json"), "utf8"),
) as Facts;

const LINES: readonly Release[] = ["0.7", "0.8", "1.3"];

function containerOf(release: Release, tls: boolean, legacy = false): V1Container {
  const networking = tls ? { tls: { enabled: true, secretName: "srv-tls" } } : {};
  const context = aContext({
    release,
    spec: { networking, auth: { kubernetes: {} } },
    ...(legacy ? { legacy: { containerName: "llama-stack", networkSet: false } } : {}),
  });
  return buildDeployment(context).spec!.template.spec!.containers[0]!;
}

const probesOf = (c: V1Container): [string, V1Probe | undefined][] => [
  ["startup", c.startupProbe],
  ["readiness", c.readinessProbe],
  ["liveness", c.livenessProbe],
];

describe.each(LINES)("the server's probes on the %s line", (release) => {
  it.each([
    ["v1alpha2, plain HTTP", false, false, "HTTP"],
    ["v1alpha2, TLS", true, false, "HTTPS"],
    ["v1alpha1, plain HTTP", false, true, "HTTP"],
    ["v1alpha1, TLS", true, true, "HTTPS"],
  ])("%s: each asks a route the line serves without a token, in the scheme served", (_title, tls, legacy, scheme) => {
    const open = FACTS.lines[release]!.public;
    for (const [probe, p] of probesOf(containerOf(release, tls, legacy))) {
      expect([probe, open.includes(p?.httpGet?.path ?? "")]).toEqual([probe, true]);
      expect([probe, p?.httpGet?.scheme]).toEqual([probe, scheme]);
    }
  });

  it("a route policy's first rule (added by the hooks) permits exactly the routes the line leaves open", () => {
    expect([...OPEN_ROUTES].sort()).toEqual([...FACTS.lines[release]!.public].sort());
  });
});

it("the 1.3.0 server answered the probes' route with a success, auth on, with or without a route policy", () => {
  const path = containerOf("1.3", false).livenessProbe!.httpGet!.path!;
  const answers = FACTS.observed.filter((o) => o.request === `GET ${path}`);
  expect(answers.map((o) => o.config).sort()).toEqual(["auth", "auth", "auth and routePolicy"]);
  for (const o of answers) expect(o.status >= 200 && o.status < 400).toBe(true);
  // The same server refused a route that is not open: auth was on.
  expect(FACTS.observed.filter((o) => o.request === "GET /v1/models").map((o) => o.status)).toEqual([401, 401]);
});
