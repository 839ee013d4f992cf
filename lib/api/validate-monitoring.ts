/**
 * `spec.monitoring`'s rules (docs/spec-reference.md#monitoring): a port of its own, scraper
 * namespaces a NetworkPolicy can select, and a server that has the endpoint: the 1.x line from
 * OGX 1.2.0 on. An older server ignores the variables, so the port would stay closed in silence.
 */
import { fieldError, listOf, type FieldError } from "../errors";
import { listenPort } from "../defaults";
import { knownBelow, type LineEvidence } from "../distributions/detect";
import type { Release } from "../distributions/table";
import { FIRST_METRICS_RELEASE, METRICS_LINES, metricsOn } from "../distributions/monitoring";
import type { CanonicalSpec } from "./canonical";
import { NAME_FORMATS } from "../names";

const PATH = "spec.monitoring";

/** A namespace name is a DNS-1123 label. */
function isNamespaceName(name: string): boolean {
  const format = NAME_FORMATS["DNS-1123 label"];
  return name.length <= format.max && format.pattern.test(name);
}

function portRule(spec: CanonicalSpec): FieldError[] {
  const m = spec.monitoring;
  const serverPort = listenPort(spec.networking.port);
  if (!metricsOn(m) || m.port !== serverPort) return [];
  return [
    fieldError(
      `${PATH}.port`,
      `${m.port} is the server's own port (networking.port): the metrics endpoint needs a port of its own; remove monitoring.port for the default 9464, or choose another`,
    ),
  ];
}

function namespaceRules(spec: CanonicalSpec): FieldError[] {
  const errors: FieldError[] = [];
  (spec.monitoring?.allowedFrom ?? []).forEach((entry, i) => {
    if (entry === "*" || isNamespaceName(entry)) return;
    errors.push(
      fieldError(
        `${PATH}.allowedFrom.namespaces[${i}]`,
        `${JSON.stringify(entry)} is not a namespace name (lowercase letters, digits and '-', at most 63); write the name of the namespace Prometheus runs in, or "*" for every namespace`,
      ),
    );
  });
  return errors;
}

/** The spec's own rules, whatever server it runs. */
export function monitoringRules(spec: CanonicalSpec): FieldError[] {
  return [...portRule(spec), ...namespaceRules(spec)];
}

const HAVE_IT = `the lines that have it: ${listOf(METRICS_LINES)} (OGX ${FIRST_METRICS_RELEASE} and later)`;

/**
 * On a line without the endpoint, or an image whose version is known to be older than 1.2.0:
 * refused, with the lines that have it. `evidence` is what the image says of its version.
 */
export function monitoringLineErrors(spec: CanonicalSpec, release: Release, evidence: LineEvidence = {}): FieldError[] {
  if (!metricsOn(spec.monitoring)) return [];
  const fix = "use an image of OGX 1.2 or later, or remove monitoring (or set monitoring.enabled: false)";
  if (!METRICS_LINES.includes(release))
    return [fieldError(`${PATH}.enabled`, `the ${release} server line has no metrics endpoint; ${HAVE_IT}: ${fix}`)];
  if (knownBelow(evidence, FIRST_METRICS_RELEASE))
    return [
      fieldError(
        `${PATH}.enabled`,
        `${evidence.labelVersion ?? evidence.image ?? "the image"} is older than OGX ${FIRST_METRICS_RELEASE}, whose server has no metrics endpoint; ${HAVE_IT}: ${fix}`,
      ),
    ];
  return [];
}
