/**
 * The prometheus-operator ServiceMonitor as its kubernetes-models type validates it (the CRD's
 * schema, generated into @kubernetes-models/prometheus-operator): an object's errors.
 */
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor";

/** What the ServiceMonitor's schema refuses in `object` (empty: accepted). */
export function serviceMonitorErrors(object: unknown): string[] {
  try {
    new ServiceMonitor(structuredClone(object) as never).validate();
    return [];
  } catch (error: unknown) {
    return [error instanceof Error ? error.message : String(error)];
  }
}
