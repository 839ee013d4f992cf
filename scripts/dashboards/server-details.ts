/** The detail dashboards the overview links to, one per part of the server, in the order its links list them. */
import type { DashboardSpec } from "./grafana";
import { responses, toolRuntime, vectorIo } from "./server-agents";
import { inference, requests, tokens } from "./server-calls";

export const details: readonly DashboardSpec[] = [requests, inference, tokens, vectorIo, toolRuntime, responses];
