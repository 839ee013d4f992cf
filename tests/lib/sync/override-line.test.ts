/**
 * An overrideConfig written for another line is mounted as is (never adapted), and the status
 * names each key the line does not take, with the fix; a file of the line's own shape gets none.
 */
import { sync } from "../../../lib/sync/sync";
import { aConfigMap, aParent, aRequest, deps } from "../../sync-builders";
import { tableFor } from "../../server-check/from-sync";
import type { Release } from "../../../lib/distributions/table";

const CONFIG_08 = `version: 2
apis: [inference, responses, safety]
providers:
  inference:
  - provider_id: vllm
    provider_type: remote::vllm
    config: {base_url: "http://vllm:8000/v1"}
  responses:
  - provider_id: builtin
    provider_type: inline::builtin
    config:
      persistence:
        agent_state: {namespace: agents, backend: kv_default}
        responses: {table_name: responses, backend: sql_default}
  safety:
  - provider_id: llama-guard
    provider_type: inline::llama-guard
    config: {}
server:
  port: 8321
  cors: true
`;

function notesOn(release: Release): string[] {
  const r = sync(
    aRequest(
      aParent({ distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } }),
      [],
      [aConfigMap("mine", { "config.yaml": CONFIG_08 })],
    ),
    { ...deps(), distributions: tableFor(release) },
  );
  return ((r.status.notes ?? []) as string[]).filter((n) => n.includes("(mounted as is)"));
}

describe("an overrideConfig written for another line", () => {
  it("on 1.3: names the Safety API, persistence.agent_state and server.cors, each with the fix", () => {
    const notes = notesOn("1.3");
    expect(notes).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^ConfigMap mine \(mounted as is\) is not in the 1\.3 line's shape, where the Safety API /,
        ),
        expect.stringMatching(
          /^ConfigMap mine \(mounted as is\) is not in the 1\.3 line's shape, where providers\.responses: responses have no persistence\.agent_state on the 1\.3 line: change it in the ConfigMap \(the hooks adapt only the configs they generate\)$/,
        ),
        expect.stringMatching(
          /^ConfigMap mine \(mounted as is\) is not in the 1\.3 line's shape, where server: cors and quota/,
        ),
      ]),
    );
    expect(notes).toHaveLength(3);
  });

  it("on 0.8, the line it was written for: nothing to say", () => {
    expect(notesOn("0.8")).toEqual([]);
  });
});
