/**
 * An overrideConfig is the user's file: its providers are checked against the line's config
 * classes as settings are, and what is wrong becomes a status note, never a refusal.
 */
import { sync } from "../../../lib/sync/sync";
import { aConfigMap, aParent, aRequest, deps } from "../../sync-builders";
import { tableFor } from "../../server-check/from-sync";

const CONFIG = `version: 2
apis: [inference]
providers:
  inference:
  - provider_id: vllm
    provider_type: remote::vllm
    config: {base_url: "http://vllm:8000/v1", max_tokens: 0.5, max_tokenz: 5}
  - provider_id: \${env.OLLAMA_URL:+ollama}
    provider_type: remote::ollama
    config: {bogus: 1}
`;

function synced() {
  const parent = aParent({ distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } });
  const request = aRequest(parent, [], [aConfigMap("mine", { "config.yaml": CONFIG })]);
  return sync(request, { ...deps(), distributions: tableFor("1.3") });
}

describe("an overrideConfig's providers against the line's config classes", () => {
  it("are status notes, and the config is mounted as is", () => {
    const { status } = synced();
    expect(status.phase).not.toBe("Failed");
    const notes = ((status.notes ?? []) as string[]).filter((n) => n.includes("(mounted as is; change it there)"));
    // The ollama entry is switched off (OLLAMA_URL is not set in the pod): the server never reads its config.
    expect(notes).toEqual([
      "ConfigMap mine (mounted as is; change it there): providers.inference[0].config.max_tokens: remote::vllm on the 1.3 line takes an integer here, not 0.5",
      'ConfigMap mine (mounted as is; change it there): providers.inference[0].config.max_tokenz: unknown key "max_tokenz" for remote::vllm on the 1.3 line: the server ignores it, so it has no effect; did you mean "max_tokens"?',
    ]);
  });
});
