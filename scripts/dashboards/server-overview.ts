/**
 * The overview of an LLSD fleet: what a platform team reads at a glance (is every server up, are
 * they failing, slow, saturated, how fast do they generate), per LLSD, and a link from each
 * number to the dashboard that explains it.
 */
import { sel, type DashboardSpec } from "./grafana";
import { gauge, quantile, rate, ratio } from "./promql";
import { DETAIL } from "./uids";

const S5XX = 'status_code=~"5.."';
const PER_LLSD = "namespace, name";
const LLSD_LEGEND = "{{namespace}}/{{name}}";

export const overview: DashboardSpec = {
  uid: "llsd-server-overview",
  title: "LLSD servers / Overview",
  description:
    "Every LLSD server the hooks monitor (spec.monitoring): health, errors, latency, generation, saturation.",
  rows: [
    {
      title: "At a glance",
      panels: [
        {
          title: "Replicas not answering",
          description: "Server pods Prometheus cannot scrape: down, restarting or unreachable.",
          kind: "stat",
          unit: "none",
          redAt: 1,
          queries: [{ expr: `sum(1 - up${sel()})`, legend: "down" }],
        },
        {
          title: "Requests",
          description: "API requests per second, every API.",
          kind: "stat",
          unit: "reqps",
          link: DETAIL.requests,
          queries: [{ expr: rate("ogx_requests_total"), legend: "requests" }],
        },
        {
          title: "5xx ratio",
          description: "Share of requests the servers answer 5xx. 4xx (bad requests, refused tokens) are the callers'.",
          kind: "stat",
          unit: "percentunit",
          redAt: 0.05,
          link: DETAIL.requests,
          queries: [{ expr: ratio("ogx_requests_total", S5XX), legend: "5xx" }],
        },
        {
          title: "p95 latency",
          description: "95th percentile of request duration; a streamed answer counts until its last byte.",
          kind: "stat",
          unit: "s",
          redAt: 30,
          link: DETAIL.requests,
          queries: [{ expr: quantile(0.95, "ogx_request_duration_seconds"), legend: "p95" }],
        },
        {
          title: "p95 time to first token",
          description: "Streamed chat completions: from the request to the first content token.",
          kind: "stat",
          unit: "s",
          redAt: 10,
          link: DETAIL.tokens,
          queries: [{ expr: quantile(0.95, "ogx_inference_time_to_first_token_seconds"), legend: "p95" }],
        },
        {
          title: "Output tokens per second (median)",
          description: "Median generation speed: completion tokens over the call's duration.",
          kind: "stat",
          unit: "short",
          link: DETAIL.tokens,
          queries: [{ expr: quantile(0.5, "ogx_inference_tokens_per_second"), legend: "median" }],
        },
        {
          title: "In-flight requests",
          description:
            "Requests being served right now, every replica: the saturation to compare with what the servers' providers take.",
          kind: "stat",
          unit: "short",
          link: DETAIL.requests,
          queries: [{ expr: gauge("ogx_concurrent_requests"), legend: "in flight" }],
        },
        {
          title: "Inference error ratio",
          description: "Share of inference calls (chat, completion) that fail, usually at the model provider.",
          kind: "stat",
          unit: "percentunit",
          redAt: 0.05,
          link: DETAIL.inference,
          queries: [{ expr: ratio("ogx_inference_duration_seconds_count", 'status="error"'), legend: "errors" }],
        },
        {
          title: "Tool call error ratio",
          description: "Share of tool invocations (web search, MCP, file search) that fail.",
          kind: "stat",
          unit: "percentunit",
          redAt: 0.25,
          link: DETAIL.toolRuntime,
          queries: [{ expr: ratio("ogx_tool_runtime_invocations_total", 'status="error"'), legend: "errors" }],
        },
        {
          title: "p95 vector search",
          description: "95th percentile of a vector store query's duration.",
          kind: "stat",
          unit: "s",
          link: DETAIL.vectorIo,
          queries: [{ expr: quantile(0.95, "ogx_vector_io_retrieval_duration_seconds"), legend: "p95" }],
        },
        {
          title: "Agentic Responses calls",
          description: "Responses API calls per second that offer the model tools.",
          kind: "stat",
          unit: "ops",
          link: DETAIL.responses,
          queries: [{ expr: rate("ogx_responses_agentic_calls_total"), legend: "calls" }],
        },
      ],
    },
    {
      title: "Per LLSD",
      panels: [
        {
          title: "LLSDs",
          description: "One line per LLSD: requests per second, 5xx ratio, p95 latency and requests in flight.",
          kind: "table",
          unit: "none",
          queries: [
            { expr: rate("ogx_requests_total", PER_LLSD), legend: "requests/s" },
            { expr: ratio("ogx_requests_total", S5XX, PER_LLSD), legend: "5xx ratio" },
            { expr: quantile(0.95, "ogx_request_duration_seconds", PER_LLSD), legend: "p95 s" },
            { expr: gauge("ogx_concurrent_requests", PER_LLSD), legend: "in flight" },
          ],
        },
        {
          title: "Requests per LLSD",
          description: "API requests per second.",
          kind: "timeseries",
          unit: "reqps",
          queries: [{ expr: rate("ogx_requests_total", PER_LLSD), legend: LLSD_LEGEND }],
        },
        {
          title: "5xx ratio per LLSD",
          description: "The LlsdServerErrors alert fires above 5 % for 10 minutes.",
          kind: "timeseries",
          unit: "percentunit",
          queries: [{ expr: ratio("ogx_requests_total", S5XX, PER_LLSD), legend: LLSD_LEGEND }],
        },
        {
          title: "p95 latency per LLSD",
          description: "The LlsdServerSlow alert fires above 30 s for 15 minutes.",
          kind: "timeseries",
          unit: "s",
          queries: [{ expr: quantile(0.95, "ogx_request_duration_seconds", PER_LLSD), legend: LLSD_LEGEND }],
        },
        {
          title: "In-flight requests per LLSD",
          description: "Requests being served, summed over the LLSD's replicas.",
          kind: "timeseries",
          unit: "short",
          queries: [{ expr: gauge("ogx_concurrent_requests", PER_LLSD), legend: LLSD_LEGEND }],
        },
      ],
    },
  ],
};
