/**
 * A base config written for another server line (lib/config/base-line.ts): what only another
 * line's server takes is refused at its place in the file, per line; a base of the line itself
 * (every bundled one, and the upstream configs of each tag) passes; older shapes brought forward
 * are not refused.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readAdaptedBase } from "../../../lib/config/adapted-base";
import { schemaTagOf } from "../../../lib/distributions/releases";
import { RELEASES, type Release } from "../../../lib/distributions/table";
import { base } from "../../config-helpers";

const upstream = (name: string, release: Release): string =>
  readFileSync(
    join(
      __dirname,
      "..",
      "..",
      "fixtures",
      "server-schemas",
      schemaTagOf(release),
      "distributions",
      name,
      "config.yaml",
    ),
    "utf8",
  );

/** A small base, its sections written in the line's own form or another's. */
function aBase(lines: readonly string[]): string {
  return ["version: 2", "distro_name: mine", "apis: [inference]", ...lines, ""].join("\n");
}
const OLLAMA = [
  "providers:",
  "  inference:",
  "  - provider_id: ollama",
  "    provider_type: remote::ollama",
  "    config: {base_url: http://ollama:11434/v1}",
];
const SKILLS = [...OLLAMA, "  skills:", "  - provider_id: builtin", "    provider_type: inline::builtin"];
const EVAL = [...OLLAMA, "  eval:", "  - provider_id: builtin", "    provider_type: inline::builtin"];
const MESSAGES = [...OLLAMA, "  messages:", "  - provider_id: builtin", "    provider_type: inline::builtin"];
const SKILLS_IN_APIS = ["apis: [inference, skills]", ...OLLAMA];
const BATCHES_SQL = [
  ...OLLAMA,
  "  batches:",
  "  - provider_id: reference",
  "    provider_type: inline::reference",
  "    config: {sqlstore: {table_name: batches, backend: sql_default}}",
];
/** The 1.x key beside the one 0.7/0.8 require: those lines ignore it and run. */
const BATCHES_BOTH = BATCHES_SQL.map((line) =>
  line.replace("{sqlstore:", "{kvstore: {namespace: batches, backend: kv_default}, sqlstore:"),
);
const META = [...OLLAMA, "  - provider_id: meta", "    provider_type: remote::meta", "    config: {}"];
const PROMPTS_SQL = [...OLLAMA, "storage:", "  stores:", "    prompts: {table_name: prompts, backend: sql_default}"];
const EXTERNAL = [
  ...OLLAMA,
  "  - provider_id: mine",
  "    provider_type: remote::meta",
  "    module: my_provider==1.0",
];

const errorsOf = (text: string, release: Release): string[] => {
  const read = readAdaptedBase(text.replace("apis: [inference]\napis:", "apis:"), release);
  return read.ok ? [] : read.errors.map((e) => `${e.path}: ${e.message}`);
};

describe("a base written for another line", () => {
  it.each<[string, Release, string[], string]>([
    ["skills (1.x)", "0.8", SKILLS, "baseConfig.providers.skills: the 0.8 server line has no skills API"],
    ["skills (1.x)", "0.7", SKILLS, "baseConfig.providers.skills: the 0.7 server line has no skills API"],
    ["skills only in apis (1.x)", "0.8", SKILLS_IN_APIS, "baseConfig.apis[1]: the 0.8 server line has no skills API"],
    ["messages (0.8, 1.x)", "0.7", MESSAGES, "baseConfig.providers.messages: the 0.7 server line has no messages API"],
    ["eval (0.7)", "0.8", EVAL, "baseConfig.providers.eval: the 0.8 server line has no eval API"],
    ["eval (0.7)", "1.3", EVAL, "baseConfig.providers.eval: the 1.3 server line has no eval API"],
    [
      "remote::meta (1.x)",
      "0.8",
      META,
      "baseConfig.providers.inference[1].provider_type: remote::meta is not a provider type of the 0.8 line",
    ],
    [
      "remote::meta (1.3 only)",
      "1.2",
      META,
      "baseConfig.providers.inference[1].provider_type: remote::meta is not a provider type of the 1.2 line",
    ],
    [
      "batches in a sqlstore (1.x)",
      "0.8",
      BATCHES_SQL,
      "baseConfig.providers.batches[0].config.sqlstore: inline::reference takes sqlstore on the 1.2.x, 1.3.x lines, where the 0.8 line's requires kvstore",
    ],
    [
      "batches in a sqlstore (1.x)",
      "0.7",
      BATCHES_SQL,
      "baseConfig.providers.batches[0].config.sqlstore: inline::reference takes sqlstore on the 1.2.x, 1.3.x lines, where the 0.7 line's requires kvstore",
    ],
    [
      "prompts in a SQL table (1.x)",
      "0.8",
      PROMPTS_SQL,
      "baseConfig.storage.stores.prompts: a SQL table (table_name), as the 1.2.x, 1.3.x lines write it, where the 0.8 line reads {namespace, backend: <a kv_ backend>}",
    ],
  ])("with %s, on %s, is refused at the place, with the fix", (_what, release, lines, error) => {
    const errors = errorsOf(aBase(lines), release);
    expect(errors).toEqual([expect.stringContaining(error)]);
    expect(errors[0]).toMatch(
      new RegExp(
        `write it for the ${release.replace(".", "\\.")} line, or run an image of the [0-9.x, ]+ lines? \\(distribution\\.image\\)$`,
      ),
    );
  });

  it.each<[string, Release, string[]]>([
    ["skills", "1.3", SKILLS],
    ["messages", "0.8", MESSAGES],
    ["eval", "0.7", EVAL],
    ["remote::meta", "1.3", META],
    ["batches in a sqlstore", "1.3", BATCHES_SQL],
    ["batches with both stores", "0.8", BATCHES_BOTH],
    ["prompts in a SQL table", "1.3", PROMPTS_SQL],
    ["an external provider (module) of a type the line lacks", "0.8", EXTERNAL],
  ])("with %s, on %s (a line that takes it), passes", (_what, release, lines) => {
    expect(errorsOf(aBase(lines), release)).toEqual([]);
  });

  it("written for 0.8 and run on 1.3, is brought forward, not refused (batches move to a sqlstore)", () => {
    const kv = BATCHES_SQL.join("\n").replace(
      "{sqlstore: {table_name: batches, backend: sql_default}}",
      "{kvstore: {namespace: batches, backend: kv_default}}",
    );
    const read = readAdaptedBase(aBase([kv]), "1.3");
    expect(read.ok && read.notes).toEqual([
      "baseConfig.providers.batches: batches keep their state in a sqlstore (sql_default) on the 1.3 line; adapted",
    ]);
  });

  it.each(RELEASES.flatMap((r) => ["starter", "postgres-demo"].map((name) => [name, r] as const)))(
    "%s of the %s line, bundled and upstream, passes on its own line",
    (name, release) => {
      expect(errorsOf(base(name, release), release)).toEqual([]);
      expect(errorsOf(upstream(name, release), release)).toEqual([]);
    },
  );
});
