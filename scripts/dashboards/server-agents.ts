/**
 * The detail dashboards of what the server does for agents: vector IO (stores, searches, inserts;
 * never split by `vector_db`, a store's id, whose values grow without bound), tool runtime and
 * the Responses API.
 */
import type { DashboardSpec } from "./grafana";
import { ERR, percentiles, ts } from "./panels";
import { quantile, rate, ratio } from "./promql";
import { DETAIL } from "./uids";

export const vectorIo: DashboardSpec = {
  uid: DETAIL.vectorIo,
  title: "LLSD servers / Vector IO",
  description: "Vector store searches, inserts and deletes per provider.",
  rows: [
    {
      title: "Operations",
      panels: [
        ts(
          "Searches by provider and mode",
          "Per second.",
          "ops",
          rate("ogx_vector_io_queries_total", "provider, search_mode"),
        ),
        ts(
          "Inserts by provider",
          "Files attached and chunks inserted, per second.",
          "ops",
          rate("ogx_vector_io_inserts_total", "provider, operation"),
        ),
        ts(
          "Chunks inserted",
          "Per second, by provider.",
          "ops",
          rate("ogx_vector_io_chunks_processed_total", "provider"),
        ),
        ts(
          "Stores, files and deletes",
          "Per second.",
          "ops",
          rate("ogx_vector_io_stores_total", "operation") + " or " + rate("ogx_vector_io_deletes_total", "operation"),
        ),
      ],
    },
    {
      title: "Errors and latency",
      panels: [
        ts(
          "Search error ratio by provider",
          "Failed searches.",
          "percentunit",
          ratio("ogx_vector_io_queries_total", ERR, "provider"),
        ),
        ts(
          "Insert error ratio by provider",
          "Failed inserts and file attachments.",
          "percentunit",
          ratio("ogx_vector_io_inserts_total", ERR, "provider"),
        ),
        ts(
          "p95 search duration",
          "By provider and search mode.",
          "s",
          quantile(0.95, "ogx_vector_io_retrieval_duration_seconds", "provider, search_mode"),
        ),
        ts(
          "p95 insert duration",
          "By provider.",
          "s",
          quantile(0.95, "ogx_vector_io_insert_duration_seconds", "provider"),
        ),
        ts(
          "Chunks per search",
          "Documents returned per successful search.",
          "short",
          `${rate("ogx_vector_io_documents_retrieved_total", "provider")} / ${rate("ogx_vector_io_queries_total", "provider", 'status="success"')}`,
        ),
      ],
    },
  ],
};

export const toolRuntime: DashboardSpec = {
  uid: DETAIL.toolRuntime,
  title: "LLSD servers / Tool runtime",
  description: "Tool invocations (web search, MCP, file search) per tool and provider.",
  rows: [
    {
      title: "Tools",
      panels: [
        ts(
          "Invocations by tool",
          "Per second.",
          "ops",
          rate("ogx_tool_runtime_invocations_total", "tool_group, tool_name"),
        ),
        ts(
          "Error ratio by tool",
          "The LlsdServerToolErrors alert fires above 25 % for 15 minutes.",
          "percentunit",
          ratio("ogx_tool_runtime_invocations_total", ERR, "tool_name"),
        ),
        ts(
          "p95 duration by tool",
          "Successful and failed calls.",
          "s",
          quantile(0.95, "ogx_tool_runtime_duration_seconds", "tool_name"),
        ),
        ts(
          "Invocations by provider and outcome",
          "Per second.",
          "ops",
          rate("ogx_tool_runtime_invocations_total", "provider, status"),
        ),
      ],
    },
  ],
};

const RESPONSES = 'api="responses"';

export const responses: DashboardSpec = {
  uid: DETAIL.responses,
  title: "LLSD servers / Responses",
  description: "The Responses API (agents): requests, tools offered, parameters used.",
  rows: [
    {
      title: "Requests",
      panels: [
        ts("Responses requests by method", "Per second.", "reqps", rate("ogx_requests_total", "method", RESPONSES)),
        ts(
          "Responses 5xx",
          "Per second, by status code.",
          "reqps",
          rate("ogx_requests_total", "status_code", `${RESPONSES}, status_code=~"5.."`),
        ),
        percentiles(
          "Responses duration",
          "Whole agent turns: model calls and tool calls.",
          "ogx_request_duration_seconds",
          RESPONSES,
        ),
      ],
    },
    {
      title: "Usage",
      panels: [
        ts("Calls with tools", "Per second.", "ops", rate("ogx_responses_agentic_calls_total")),
        ts(
          "Tool types offered",
          "Per second, by tool type.",
          "ops",
          rate("ogx_responses_tool_types_used_total", "tool_type"),
        ),
        ts(
          "Optional parameters set",
          "Per second, by parameter.",
          "ops",
          rate("ogx_responses_parameter_usage_total", "parameter"),
        ),
      ],
    },
  ],
};
