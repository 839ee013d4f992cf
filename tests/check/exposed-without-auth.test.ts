/**
 * An exposed server that asks nobody who they are gets one warning, generated (no spec.auth) or
 * mounted as is (an overrideConfig without server.auth.provider_config), at each entry point:
 * the CR's status (POST /sync), `llsd validate` (given the ConfigMap) and POST /validate, which
 * sees no ConfigMap and says it did not check. A server that authenticates gets none.
 */
import { stringify } from "yaml";
import { review } from "../../lib/admission/review";
import { EXPOSED_WITHOUT_AUTH } from "../../lib/api/validate-auth";
import { sync } from "../../lib/sync/sync";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { llsd } from "../cli-helpers";
import { aConfigMap, aRequest, deps } from "../sync-builders";
import { object } from "./bad-crs";
import { asStored } from "./stored";

const NS = "team-a";
const CONFIG = "version: 2\ndistro_name: mine\napis: [inference]\nproviders:\n  inference: []\n";
const WITH_AUTH = `${CONFIG}server:\n  auth:\n    provider_config: {type: kubernetes, api_server_url: 'https://kubernetes.default.svc'}\n`;
/** A route policy alone authenticates nobody (AuthenticationConfig.provider_config is optional). */
const ROUTES_ONLY = `${CONFIG}server:\n  auth:\n    route_policy: [{permit: {paths: '*'}}]\n`;
const override = (expose: boolean) => ({
  distribution: { name: "starter" },
  overrideConfig: { configMapName: "mine" },
  networking: { expose },
});

/** Every line each entry point says about spec.networking.expose. */
function said(spec: object, related: KubeObject[]): { status: string[]; cli: string[]; admission: string[] } {
  const cr = object(spec);
  const stored = asStored(cr, NS);
  const synced = sync(aRequest(stored, [], related), deps());
  const file = [cr, ...related].map((o) => stringify(o)).join("---\n");
  const validated = llsd(["validate", "cr.yaml"], { "cr.yaml": file });
  expect(validated.code).toBe(0);
  const admitted = review({
    uid: "u-1",
    kind: { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" },
    operation: "CREATE",
    name: "demo",
    namespace: NS,
    object: stored,
  });
  expect(admitted.allowed).toBe(true);
  const about = (lines: readonly string[]) => lines.filter((l) => l.includes("spec.networking.expose: "));
  return {
    status: about((synced.status as { notes?: string[] }).notes ?? []),
    cli: about(validated.stderr.split("\n")),
    admission: about(admitted.warnings ?? []),
  };
}

const GENERATED = `spec.networking.expose: ${EXPOSED_WITHOUT_AUTH}: set spec.auth (docs/auth.md)`;
const MOUNTED = `spec.networking.expose: ${EXPOSED_WITHOUT_AUTH}: set server.auth in ConfigMap mine (mounted as is; docs/auth.md)`;
const UNSEEN =
  "spec.networking.expose: the server is reachable from outside the cluster: whether ConfigMap mine sets server.auth was not checked here (not given)";

describe("an exposed server that asks nobody who they are: the same warning at every entry point", () => {
  it.each<[string, object, string | undefined, { status?: string; cli?: string; admission?: string }]>([
    [
      "generated, no spec.auth",
      { distribution: { name: "starter" }, networking: { expose: true } },
      undefined,
      { status: GENERATED, cli: GENERATED, admission: GENERATED },
    ],
    ["an override without server.auth", override(true), CONFIG, { status: MOUNTED, cli: MOUNTED, admission: UNSEEN }],
    [
      "an override with only a route policy",
      override(true),
      ROUTES_ONLY,
      { status: MOUNTED, cli: MOUNTED, admission: UNSEEN },
    ],
    ["an override with an auth provider", override(true), WITH_AUTH, { admission: UNSEEN }],
    ["an override not exposed", override(false), CONFIG, {}],
  ])("%s", (_t, spec, config, expected) => {
    const related = config === undefined ? [] : [aConfigMap("mine", { "config.yaml": config })];
    const lines = said(spec, related);
    const one = (text: string | undefined): unknown[] =>
      text === undefined ? [] : [expect.stringContaining(text) as unknown];
    expect(lines).toEqual({ status: one(expected.status), cli: one(expected.cli), admission: one(expected.admission) });
  });
});
