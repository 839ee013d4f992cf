/**
 * Gateway API children (HTTPRoute, BackendTLSPolicy) checked against the real CRD schemas with
 * `@kubernetes-models/gateway-api`. That package is ESM-only and jest runs CommonJS here
 * (ts-jest), so a child `node` process imports it and validates the objects read from stdin:
 * one small script instead of teaching jest to transform one package and its dependencies.
 */
import { spawnSync } from "node:child_process";
import type { KubeObject } from "../lib/wire/metacontroller";

/** The kinds the hooks emit, each by its model's module (gateway.networking.k8s.io/v1). */
export const GATEWAY_API_KINDS = ["HTTPRoute", "BackendTLSPolicy"] as const;

const SCRIPT = `
const input = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
const out = [];
for (const obj of input) {
  const { [obj.kind]: Model } = await import("@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1/" + obj.kind);
  try { new Model(obj).validate(); out.push(null); } catch (e) { out.push(String(e && e.message || e)); }
}
process.stdout.write(JSON.stringify(out));
`;

/** For each object, its schema errors (null when valid), in order. */
export function gatewayApiErrors(objects: readonly KubeObject[]): (string | null)[] {
  const script = `import { createRequire } from "node:module"; const require = createRequire(import.meta.url);${SCRIPT}`;
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
    cwd: __dirname,
    input: JSON.stringify(objects),
    encoding: "utf8",
  });
  if (run.status !== 0) throw new Error(`gateway-api validation failed to run: ${run.stderr}`);
  return JSON.parse(run.stdout) as (string | null)[];
}

export function validateGatewayApi(obj: KubeObject): void {
  const [error] = gatewayApiErrors([obj]);
  if (error) throw new Error(`${obj.kind}: ${error}`);
}
