/**
 * The server container's environment, in a fixed order: Secret-backed values,
 * plain values the config needs, the port, the config path, the Go operator's variables, then
 * the user's `workload.overrides.env`, where a name we already set is replaced in place.
 *
 * A v1alpha1 CR gets the Go operator's order first — HF_HOME, SSL_CERT_FILE, LLS_WORKERS,
 * LLS_PORT, LLAMA_STACK_CONFIG (always, as it did) — then the port variables the image
 * entrypoint reads, then the user's (docs/migrating-from-go-operator.md).
 */
import type { V1EnvVar } from "@kubernetes/client-node";
import { CONFIG_PATH, listenPort } from "../defaults";
import { CA_BUNDLE_FILE } from "./ca-bundle";
import type { ChildContext } from "./context";
import { withExternalPythonPath } from "./external-providers";
import { upsertBy } from "../lists";
import { DEFAULT_WORKERS, passThrough, storageMountPath } from "./workload";

function plain(name: string, value: string | number): V1EnvVar {
  return { name, value: String(value) };
}

function secretAndPlain(ctx: ChildContext): V1EnvVar[] {
  return [
    // Only references travel in the pod spec; the kubelet reads the values from the Secrets.
    ...ctx.secretEnv.map((s): V1EnvVar => ({
      name: s.name,
      valueFrom: { secretKeyRef: { name: s.secretName, key: s.secretKey } },
    })),
    ...ctx.plainEnv.map((e) => plain(e.name, e.value)),
  ];
}

/** The launcher ignores server.port: 0.7 (Llama Stack) reads LLAMA_STACK_PORT, 0.8 (OGX) OGX_PORT. */
function portEnv(port: number): V1EnvVar[] {
  return [plain("LLAMA_STACK_PORT", port), plain("OGX_PORT", port)];
}

const caEnv = (ctx: ChildContext): V1EnvVar[] => (ctx.caBundle ? [plain("SSL_CERT_FILE", CA_BUNDLE_FILE)] : []);

function hookEnv(ctx: ChildContext): V1EnvVar[] {
  const { networking, workload } = ctx.spec;
  const port = listenPort(networking.port);
  return [
    ...secretAndPlain(ctx),
    ...portEnv(port),
    // The image entrypoint runs RUN_CONFIG_PATH when the file exists; LLAMA_STACK_CONFIG serves
    // images started through the Go operator's uvicorn script or a user command.
    ...(ctx.config ? [plain("RUN_CONFIG_PATH", CONFIG_PATH), plain("LLAMA_STACK_CONFIG", CONFIG_PATH)] : []),
    // The Go operator's variables, kept so images and scripts written for it keep working.
    plain("HF_HOME", storageMountPath(workload)),
    ...caEnv(ctx),
    plain("LLS_WORKERS", workload.workers ?? DEFAULT_WORKERS),
    plain("LLS_PORT", port),
  ];
}

function legacyEnv(ctx: ChildContext): V1EnvVar[] {
  const { networking, workload } = ctx.spec;
  return [
    plain("HF_HOME", storageMountPath(workload)),
    ...caEnv(ctx),
    plain("LLS_WORKERS", workload.workers ?? DEFAULT_WORKERS),
    plain("LLS_PORT", listenPort(networking.port)),
    plain("LLAMA_STACK_CONFIG", CONFIG_PATH),
    // Not set by the Go operator: without it the image entrypoint serves on its default port
    // whatever containerSpec.port says.
    ...portEnv(listenPort(networking.port)),
    ...secretAndPlain(ctx),
  ];
}

export function buildEnv(ctx: ChildContext): V1EnvVar[] {
  const user = passThrough<V1EnvVar>(ctx.spec.workload.overrides?.env);
  return withExternalPythonPath(ctx, upsertBy(ctx.legacy ? legacyEnv(ctx) : hookEnv(ctx), user, "name"));
}
