/**
 * An overrideConfig is the user's file: its providers are checked against the line's config
 * classes as settings are, and what is wrong becomes a status note, never a refusal.
 */
import { sync } from "../../../lib/sync/sync";
import { aConfigMap, aParent, aRequest, deps } from "../../sync-builders";
import { tableFor } from "../../server-check/from-sync";

const CONFIG = `version: 2
distro_name: mine
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

function synced(config = CONFIG) {
  const parent = aParent({ distribution: { name: "starter" }, overrideConfig: { configMapName: "mine" } });
  const request = aRequest(parent, [], [aConfigMap("mine", { "config.yaml": config })]);
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

// StackConfig's validator on every line (core/datatypes.py, validate_distro_name_migration):
// "Either 'distro_name' or 'image_name' must be provided"; the real 1.3.0 server stopped on an
// override without either.
describe("an overrideConfig without distro_name or image_name", () => {
  const NAME_NOTE =
    "ConfigMap mine (mounted as is; change it there): distro_name: the server stops at start-up without distro_name (or the older image_name)";
  const named = (notes: string[]) => notes.some((n) => n.startsWith(NAME_NOTE));

  it.each([
    ["distro_name: mine", false],
    ["image_name: mine", false],
    ["", true],
    ["distro_name: null", true],
  ])("%j: a note that the server stops: %s", (line, noted) => {
    const { status } = synced(`version: 2\n${line}\napis: [inference]\nproviders: {}\n`);
    expect(status.phase).not.toBe("Failed");
    expect(named((status.notes ?? []) as string[])).toBe(noted);
  });
});
