/**
 * The rules of the OGX sections beyond the schemas: lines without the API refuse it (with the
 * lines that have it), a section also disabled is refused, an API one provider serves takes
 * one, the spec's provider replaces the base's, stores are filled on defined backends only,
 * and a misspelt section name gets its did-you-mean.
 */
import { validate } from "../../../lib/api/validate";
import type { LlsdSpecV1alpha2 } from "../../../lib/api/v1alpha2";
import type { Release } from "../../../lib/distributions/table";
import { aSpec, aVllm } from "../../builders";
import { baseDoc, doc, provider, run } from "../../config-helpers";

const s3 = {
  provider: "s3",
  endpoint: "http://minio.storage.svc:9000",
  settings: { bucket_name: "llsd-files" },
};

describe("a section of an API the line lacks", () => {
  it.each<[string, Release, string]>([
    ["messages", "0.7", "0.8.x, 1.2.x, 1.3.x"],
    ["interactions", "0.7", "0.8.x, 1.2.x, 1.3.x"],
    ["skills", "0.7", "1.2.x, 1.3.x"],
    ["skills", "0.8", "1.2.x, 1.3.x"],
  ])("%s on %s is refused at its path, naming the lines that have it", (section, release, lines) => {
    const spec = aSpec({ providers: { [section]: { provider: "builtin" } } });
    const expected = expect.objectContaining({
      path: `spec.providers.${section}`,
      message: expect.stringContaining(`the lines that have it: ${lines}`),
    });
    expect(validate(spec, { release }).errors).toEqual([expected]);
    const generated = run(spec, release);
    expect(generated.ok ? [] : generated.errors).toContainEqual(expected);
  });

  it.each<[string, Release]>([
    ["messages", "0.8"],
    ["skills", "1.3"],
    ["files", "0.7"],
  ])("%s on %s is served", (section, release) => {
    const spec = aSpec({
      providers: { [section]: { id: `my-${section}`, provider: section === "files" ? "localfs" : "builtin" } },
    });
    expect(validate(spec, { release }).errors).toEqual([]);
    expect(provider(doc(run(spec, release)), section, `my-${section}`)).toBeDefined();
  });
});

describe("a section that disabled also names", () => {
  it.each([
    ["files", { files: s3 }],
    ["file_processors", { fileProcessors: { provider: "pypdf" } }],
    ["responses", { responses: { provider: "builtin" } }],
  ])("disabled: [%s] beside its section is an error with both fixes", (name, providers) => {
    const { errors } = validate(aSpec({ providers, disabled: [name as "files"] }));
    expect(errors).toEqual([
      expect.objectContaining({
        path: "spec.disabled[0]",
        message: expect.stringMatching(/remove ".*" from disabled to serve it, or remove spec\.providers\./),
      }),
    ]);
  });

  it("an older section stays a warning, as before", () => {
    const result = validate(aSpec({ providers: { inference: aVllm() }, disabled: ["inference"] }));
    expect(result.errors).toEqual([]);
    expect(result.warnings.map((w) => w.path)).toEqual(["spec.disabled[0]"]);
  });
});

describe("APIs one provider serves", () => {
  it.each(["files", "batches", "responses", "messages", "interactions", "skills"])(
    "%s: a second provider is refused",
    (section) => {
      const list = [
        { id: "one", provider: "builtin" },
        { id: "two", provider: "builtin" },
      ];
      const { errors } = validate(aSpec({ providers: { [section]: list } }));
      expect(errors).toEqual([
        expect.objectContaining({
          path: `spec.providers.${section}[1]`,
          message: expect.stringContaining("with one provider"),
        }),
      ]);
    },
  );

  it("fileProcessors takes several (1.x's auto dispatches to its siblings)", () => {
    const spec = aSpec({
      providers: {
        fileProcessors: [
          { id: "pdf", provider: "pypdf" },
          { id: "docs", provider: "docling" },
        ],
      },
    });
    expect(validate(spec, { release: "1.3" }).errors).toEqual([]);
    const ids = doc(run(spec, "1.3")).providers.file_processors?.map((p) => p.provider_id);
    expect(ids).toEqual(["auto", "pdf", "docs"]);
  });

  it("the spec's files provider replaces the base's, with a note", () => {
    const result = run(aSpec({ providers: { files: s3 } }), "1.3");
    expect(doc(result).providers.files?.map((p) => p.provider_id)).toEqual(["s3"]);
    expect(result.notes).toContain(
      "providers.files.s3: replaces the base config's builtin-files (inline::localfs): the server serves files with one provider",
    );
  });

  it("the base's id overlays it: its stores and settings stay, the spec's settings on top", () => {
    const spec = aSpec({
      providers: {
        responses: {
          provider: "builtin",
          settings: { vector_stores_config: { chunk_retrieval_params: { default_search_mode: "hybrid" } } },
        },
      },
    });
    const config = provider(doc(run(spec, "1.3")), "responses", "builtin")?.config;
    const baseConfig = provider(baseDoc("starter", "1.3"), "responses", "builtin")?.config;
    expect(config).toEqual({
      ...baseConfig,
      vector_stores_config: { chunk_retrieval_params: { default_search_mode: "hybrid" } },
    });
  });
});

describe("stores", () => {
  it.each<[Release, string, object]>([
    ["0.7", "batches", { kvstore: { namespace: "batches_mine", backend: "kv_default" } }],
    ["1.3", "batches", { sqlstore: { table_name: "batches_mine", backend: "sql_default" } }],
    [
      "0.8",
      "responses",
      {
        persistence: {
          agent_state: { namespace: "agents_mine", backend: "kv_default" },
          responses: { table_name: "responses_mine", backend: "sql_default" },
        },
      },
    ],
    ["1.3", "responses", { persistence: { responses: { table_name: "responses_mine", backend: "sql_default" } } }],
    ["1.3", "messages", { kvstore: { namespace: "messages_mine", backend: "kv_default" } }],
    ["1.3", "skills", { persistence: { namespace: "skills_mine", backend: "kv_default" } }],
    [
      "1.3",
      "files",
      { storage_dir: "/.llama/files/mine", metadata_store: { table_name: "files_mine", backend: "sql_default" } },
    ],
  ])("on %s, a new %s provider keeps its state in stores of its own", (release, section, stores) => {
    const p = {
      id: "mine",
      provider: section === "files" ? "localfs" : section === "batches" ? "reference" : "builtin",
    };
    const config = provider(doc(run(aSpec({ providers: { [section]: p } }), release)), section, "mine")?.config;
    expect(config).toEqual(stores);
  });

  it("a store on a backend the config does not define is refused with the fix", () => {
    const spec: LlsdSpecV1alpha2 = aSpec({
      providers: {
        files: { ...s3, settings: { ...s3.settings, metadata_store: { table_name: "f", backend: "sql_other" } } },
      },
    });
    const result = run(spec, "1.3");
    expect(result.ok ? [] : result.errors).toEqual([
      expect.objectContaining({
        path: "spec.providers.files.settings",
        message: expect.stringContaining(
          'metadata_store uses storage backend "sql_other", which the config does not define',
        ),
      }),
    ]);
  });

  it("s3 without a bucket names the setting to add", () => {
    const result = run(aSpec({ providers: { files: { provider: "s3" } } }), "1.3");
    expect(result.ok ? [] : result.errors.map((e) => e.message)).toEqual([
      expect.stringContaining("set settings.bucket_name"),
    ]);
  });
});

describe("section names", () => {
  it.each([
    ["file", "files"],
    ["fileProcessor", "fileProcessors"],
    ["file_processors", "fileProcessors"],
    ["skill", "skills"],
  ])("spec.providers.%s: did you mean %s?", (written, meant) => {
    const { errors } = validate(aSpec({ providers: { [written]: { provider: "builtin" } } }));
    expect(errors).toContainEqual(
      expect.objectContaining({ path: "spec.providers", message: expect.stringContaining(`"${meant}"`) }),
    );
  });
});
