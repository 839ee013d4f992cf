/**
 * config.yaml `version` is read as the real server reads it: PyYAML's safe_load, then pydantic's
 * lax `int`. tests/fixtures/server-version/cases.json records what PyYAML + pydantic made of each
 * text (generate.py there regenerates it); the hooks must agree on every one.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { versionError } from "../../../lib/config/base";
import { serverConfigVersion } from "../../../lib/config/config-version";
import { checkOverrideConfig } from "../../../lib/config/override";
import { parseYaml } from "../../../lib/config/yaml";

interface Case {
  readonly yaml: string;
  readonly server: number | null;
}
const FIXTURE = JSON.parse(
  readFileSync(join(__dirname, "..", "..", "fixtures", "server-version", "cases.json"), "utf8"),
) as { cases: Case[] };
const CASES = FIXTURE.cases.map((c) => [c.yaml.trimEnd(), c.server] as const);

function read(text: string): { value: unknown; source?: string } {
  const parsed = parseYaml(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return {
    value: (parsed.value as { version?: unknown }).version,
    ...(parsed.versionSource !== undefined ? { source: parsed.versionSource } : {}),
  };
}

describe("config.yaml version, as the server reads it", () => {
  it.each(CASES)("%s → %p", (text, server) => {
    const { value, source } = read(`${text}\n`);
    const ours = serverConfigVersion(value, source);
    expect(ours === undefined ? null : Number(ours)).toBe(server);
  });

  it.each(CASES)("%s is accepted exactly when the server runs it as version 2", (text, server) => {
    const { value, source } = read(`${text}\n`);
    expect(versionError(value, source) === undefined).toBe(server === 2);
  });

  it.each([
    ["version: '2'", undefined],
    ["version: 2.0", undefined],
    [
      "version: '2.5'",
      'Unsupported config.yaml version "2.5" (the server reads version as an integer and refuses this value). Supported versions: 2',
    ],
    ["version: 3", "Unsupported config.yaml version 3. Supported versions: 2"],
    [
      "version: 0o2",
      "Unsupported config.yaml version 0o2 (the server reads version as an integer and refuses this value). Supported versions: 2",
    ],
  ])("an overrideConfig with %s: %p", (text, message) => {
    const checked = checkOverrideConfig(
      { configMapName: "cfg", key: "config.yaml" },
      { cfg: { "config.yaml": `${text}\nproviders: {}\n` } },
    );
    expect(checked.ok ? undefined : checked.error.message).toBe(
      message === undefined ? undefined : `ConfigMap "cfg": ${message}`,
    );
  });
});
