/** The detail dashboards' uids: the overview's panels link to them, and the files are named after them. */
export const DETAIL = {
  requests: "llsd-server-requests",
  inference: "llsd-server-inference",
  tokens: "llsd-server-tokens",
  vectorIo: "llsd-server-vector-io",
  toolRuntime: "llsd-server-tool-runtime",
  responses: "llsd-server-responses",
} as const;
