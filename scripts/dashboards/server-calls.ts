/**
 * The detail dashboards of the calls a server answers: requests (every API), inference (chat and
 * completion calls per model) and tokens (how fast they are generated).
 */
import type { DashboardSpec } from "./grafana";
import { ERR, percentiles, ts } from "./panels";
import { gauge, quantile, rate, ratio } from "./promql";
import { DETAIL } from "./uids";

export const requests: DashboardSpec = {
  uid: DETAIL.requests,
  title: "LLSD servers / Requests",
  description: "Every API request the servers answer: traffic, errors, latency and saturation per API.",
  rows: [
    {
      title: "Traffic",
      panels: [
        ts("Requests by API", "Per second.", "reqps", rate("ogx_requests_total", "api")),
        ts("Requests by status code", "Per second.", "reqps", rate("ogx_requests_total", "status_code")),
      ],
    },
    {
      title: "Errors",
      panels: [
        ts(
          "5xx ratio by API",
          "The servers' own failures.",
          "percentunit",
          ratio("ogx_requests_total", 'status_code=~"5.."', "api"),
        ),
        ts(
          "4xx by API and method",
          "Refused requests per second: bad input, unknown models, refused tokens.",
          "reqps",
          rate("ogx_requests_total", "api, method", 'status_code=~"4.."'),
        ),
      ],
    },
    {
      title: "Latency and saturation",
      panels: [
        percentiles(
          "Request duration",
          "Every API; a streamed answer counts until its last byte.",
          "ogx_request_duration_seconds",
        ),
        ts(
          "p95 duration by method",
          "The ten slowest methods.",
          "s",
          `topk(10, ${quantile(0.95, "ogx_request_duration_seconds", "api, method")})`,
        ),
        ts(
          "In-flight requests by API",
          "Requests being served right now.",
          "short",
          gauge("ogx_concurrent_requests", "api"),
        ),
        ts(
          "In-flight requests by LLSD",
          "Summed over each LLSD's replicas.",
          "short",
          gauge("ogx_concurrent_requests", "namespace, name"),
        ),
      ],
    },
  ],
};

export const inference: DashboardSpec = {
  uid: DETAIL.inference,
  title: "LLSD servers / Inference",
  description: "Chat and completion calls per model and provider: volume, failures, duration.",
  rows: [
    {
      title: "Calls",
      panels: [
        ts(
          "Calls by model",
          "Chat and completion calls per second.",
          "ops",
          rate("ogx_inference_duration_seconds_count", "model"),
        ),
        ts(
          "Calls by model type",
          "Every call, embeddings and rerankers included, per second.",
          "ops",
          rate("ogx_inference_model_type_used_total", "type"),
        ),
        ts(
          "Error ratio by provider",
          "Failed calls, usually the model provider failing or timing out.",
          "percentunit",
          ratio("ogx_inference_duration_seconds_count", ERR, "provider"),
        ),
        ts(
          "Streamed share",
          "Share of calls streamed.",
          "percentunit",
          ratio("ogx_inference_duration_seconds_count", 'stream="true"'),
        ),
      ],
    },
    {
      title: "Duration",
      panels: [
        percentiles("Call duration", "From the call to its last token.", "ogx_inference_duration_seconds"),
        ts(
          "p95 duration by model",
          "Per model and whether streamed.",
          "s",
          quantile(0.95, "ogx_inference_duration_seconds", "model, stream"),
        ),
      ],
    },
  ],
};

export const tokens: DashboardSpec = {
  uid: DETAIL.tokens,
  title: "LLSD servers / Tokens",
  description:
    "Generation speed: time to first token and output tokens per second, per model. The 1.3 server counts no tokens, it measures their rate.",
  rows: [
    {
      title: "First token",
      panels: [
        percentiles(
          "Time to first token",
          "Streamed calls: from the request to the first content token.",
          "ogx_inference_time_to_first_token_seconds",
        ),
        ts(
          "p95 time to first token by model",
          "The LlsdServerSlowFirstToken alert fires above 10 s for 15 minutes.",
          "s",
          quantile(0.95, "ogx_inference_time_to_first_token_seconds", "model"),
        ),
      ],
    },
    {
      title: "Throughput",
      panels: [
        ts(
          "Output tokens per second by model (median)",
          "Completion tokens over the call's duration.",
          "short",
          quantile(0.5, "ogx_inference_tokens_per_second", "model"),
        ),
        ts(
          "Slowest tenth by model",
          "10th percentile: the speed the slowest calls get.",
          "short",
          quantile(0.1, "ogx_inference_tokens_per_second", "model"),
        ),
        ts(
          "Median by provider and stream",
          "Streamed and whole answers apart.",
          "short",
          quantile(0.5, "ogx_inference_tokens_per_second", "provider, stream"),
        ),
        ts(
          "Measured calls",
          "Calls per second that reported token usage.",
          "ops",
          rate("ogx_inference_tokens_per_second_count", "model"),
        ),
      ],
    },
  ],
};
