/**
 * The server container's environment, in a fixed order: Secret-backed values,
 * plain values the config needs, the port, the config path, where the server keeps its state,
 * then the user's `workload.overrides.env`, where a name we already set is replaced in place.
 * Only variables the server line reads (lib/distributions/releases.ts, LINE_STARTUP) are set.
 *
 * A v1alpha1 CR gets the Go operator's order first — HF_HOME, SSL_CERT_FILE, LLS_WORKERS,
 * LLS_PORT, LLAMA_STACK_CONFIG (always, as it did: its start-up script reads them) — then the
 * port variables the image entrypoint reads and the state directory, then the user's
 * (docs/migrating-from-go-operator.md).
 */
import type { V1EnvVar } from "@kubernetes/client-node";
import { LINE_STARTUP, stateLayout } from "../distributions/releases";
import { CONFIG_PATH, listenPort } from "../defaults";
import { CA_BUNDLE_FILE } from "./ca-bundle";
import type { ChildContext } from "./context";
import { withExternalPythonPath } from "./external-providers";
import { metricsEnv } from "./metrics";
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

/** The launcher ignores server.port: 0.7 (Llama Stack) reads LLAMA_STACK_PORT, 0.8 and 1.x (OGX) OGX_PORT. */
function portEnv(ctx: ChildContext, port: number): V1EnvVar[] {
  return [plain(LINE_STARTUP[ctx.release].portEnv, port)];
}

/**
 * HOME and the line's config directory, so that everything the server keeps under
 * `~/.llama` or `~/.ogx` lands on the storage volume (the PVC, or the emptyDir), and 0.8+'s
 * start-up move of `~/.llama` never runs (it is skipped when the config directory is named).
 */
function stateEnv(ctx: ChildContext): V1EnvVar[] {
  const { home, stateDir } = stateLayout(ctx.release, storageMountPath(ctx.spec.workload));
  return [plain("HOME", home), plain(LINE_STARTUP[ctx.release].configDirEnv, stateDir)];
}

/** `workload.workers` where the launcher reads a variable for it (1.x); the config's `server.workers` serves the rest. */
function workersEnv(ctx: ChildContext): V1EnvVar[] {
  const name = LINE_STARTUP[ctx.release].workersEnv;
  const workers = ctx.spec.workload.workers;
  return name !== undefined && workers !== undefined ? [plain(name, workers)] : [];
}

/** Where the server finds the mounted config: the entrypoint's RUN_CONFIG_PATH, and 0.7's own variable. */
function configEnv(ctx: ChildContext): V1EnvVar[] {
  if (!ctx.config) return [];
  const own = LINE_STARTUP[ctx.release].configEnv;
  return own === undefined
    ? [plain("RUN_CONFIG_PATH", CONFIG_PATH)]
    : [plain("RUN_CONFIG_PATH", CONFIG_PATH), plain(own, CONFIG_PATH)];
}

const caEnv = (ctx: ChildContext): V1EnvVar[] => (ctx.caBundle ? [plain("SSL_CERT_FILE", CA_BUNDLE_FILE)] : []);

function hookEnv(ctx: ChildContext): V1EnvVar[] {
  const port = listenPort(ctx.spec.networking.port);
  return [
    ...secretAndPlain(ctx),
    ...portEnv(ctx, port),
    ...workersEnv(ctx),
    ...configEnv(ctx),
    ...stateEnv(ctx),
    plain("HF_HOME", storageMountPath(ctx.spec.workload)),
    ...caEnv(ctx),
    ...metricsEnv(ctx),
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
    // whatever containerSpec.port says; nor the state directory, which it left in the image.
    ...portEnv(ctx, listenPort(networking.port)),
    ...stateEnv(ctx),
    ...secretAndPlain(ctx),
    ...metricsEnv(ctx),
  ];
}

export function buildEnv(ctx: ChildContext): V1EnvVar[] {
  const user = passThrough<V1EnvVar>(ctx.spec.workload.overrides?.env);
  return withExternalPythonPath(ctx, upsertBy(ctx.legacy ? legacyEnv(ctx) : hookEnv(ctx), user, "name"));
}
