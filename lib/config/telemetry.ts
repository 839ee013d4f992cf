/**
 * Telemetry has no provider on current servers (removed in 0.3/0.4): a telemetry provider's
 * endpoint becomes OpenTelemetry env on the container, which the image's entrypoint honours
 * by running under `opentelemetry-instrument`.
 */
import type { Provider } from "../api/canonical";

export interface PlainEnv {
  readonly name: string;
  readonly value: string;
}

export function telemetryEnv(
  providers: readonly Provider[],
  serviceName: string,
): { env: PlainEnv[]; notes: string[] } {
  const t = providers.find((p) => p.api === "telemetry");
  if (!t?.endpoint) return { env: [], notes: [] };
  const settings = (t.settings ?? {}) as Record<string, unknown>;
  const env: PlainEnv[] = [
    { name: "OTEL_EXPORTER_OTLP_ENDPOINT", value: t.endpoint },
    { name: "OTEL_SERVICE_NAME", value: typeof settings.serviceName === "string" ? settings.serviceName : serviceName },
  ];
  if (typeof settings.protocol === "string")
    env.push({ name: "OTEL_EXPORTER_OTLP_PROTOCOL", value: settings.protocol });
  return {
    env,
    notes: [
      `${t.path}: telemetry is exported with OpenTelemetry env (OTEL_EXPORTER_OTLP_ENDPOINT), not a config.yaml provider`,
    ],
  };
}
