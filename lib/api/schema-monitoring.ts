/** JSON Schema of `spec.monitoring` (lib/distributions/monitoring.ts, docs/spec-reference.md#monitoring). */
import { MIN_SERVER_PORT } from "../defaults";
import { DEFAULT_METRICS_PORT } from "../distributions/monitoring";
import { bool, int, obj, strList } from "./schema-parts";

export const MONITORING_SCHEMA = obj(
  "The server's Prometheus metrics (OGX 1.2 and later): a `metrics` port on the pod and the Service, admitted from the scraper's namespace, and a ServiceMonitor where the hooks run with the server-monitoring component.",
  {
    enabled: bool("Serve the metrics endpoint. Defaults to true when `monitoring` is set."),
    port: int("Port of the metrics endpoint; must differ from the server port.", {
      minimum: MIN_SERVER_PORT,
      maximum: 65535,
      default: DEFAULT_METRICS_PORT,
    }),
    allowedFrom: obj("Who may scrape the metrics port (NetworkPolicy).", {
      namespaces: strList(
        "Namespace names whose pods may scrape (`*` means all). Defaults to the hooks' scraper namespace (`monitoring`).",
        { minItems: 1 },
      ),
    }),
  },
);
