import { aSpec } from "../../builders";
import { baseDoc, doc, ok, run } from "../../config-helpers";

describe("disabled", () => {
  it("given an API, removes it from apis and providers and keeps the rest untouched", () => {
    const config = doc(run(aSpec({ disabled: ["batches"] })));
    const base = baseDoc();
    expect(config.apis).toEqual(base.apis?.filter((a) => a !== "batches"));
    expect(config.providers.batches).toBeUndefined();
    expect(config.providers.inference).toEqual(base.providers.inference);
  });

  it("given safety, drops the shields that pointed at it and the default shield", () => {
    const config = doc(run(aSpec({ disabled: ["safety"] })));
    expect(config.registered_resources?.shields).toEqual([]);
    expect(config.safety).toBeUndefined();
  });

  it("given an API another enabled API needs, fails naming the dependency and the whole set to disable with it", () => {
    const result = run(aSpec({ disabled: ["files"] }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]).toEqual({
      path: "spec.disabled[0]",
      message: expect.stringMatching(
        /^cannot disable files: the (batches|file_processors|responses) API needs it; disable batches, eval, file_processors, responses, tool_runtime too \(each needs files or another of them\), or keep files$/,
      ),
    });
  });

  /** The set the message lists: what follows "disable " up to " too". */
  const listed = (message: string): string[] => /; disable (.*) too \(/.exec(message)?.[1]?.split(", ") ?? [];

  it.each([
    ["0.7", ["files"]],
    ["0.7", ["inference"]],
    ["0.8", ["vectorIo"]],
    ["0.8", ["files"]],
    ["0.8", ["files", "batches"]],
  ] as const)("on %s, given %j, lists the whole set at once: disabling it too passes", (release, disabled) => {
    const first = run(aSpec({ disabled: [...disabled] }), release);
    const set = !first.ok ? listed(first.errors[0]?.message ?? "") : [];
    expect(set.length).toBeGreaterThan(0);
    expect(run(aSpec({ disabled: [...disabled, ...set] as never }), release).ok).toBe(true);
  });

  it("given the dependent too, disables both", () => {
    // On 0.7, eval's only provider type needs responses (the registry's api_dependencies).
    const config = doc(
      run(aSpec({ disabled: ["files", "responses", "batches", "fileProcessors", "toolRuntime", "eval"] })),
    );
    expect(Object.keys(config.providers).sort()).toEqual(["datasetio", "inference", "safety", "scoring", "vector_io"]);
  });

  it("refuses to disable what a remaining provider type needs by the release's registry", () => {
    const result = run(aSpec({ disabled: ["datasetio"] }), "0.7");
    expect(!result.ok && result.errors[0]).toEqual({
      path: "spec.disabled[0]",
      message: expect.stringMatching(/^cannot disable datasetio: the (eval|scoring) provider .* needs it/),
    });
  });

  it.each([
    ["0.7", "postTraining", /0.7.x servers have no "postTraining" API; nothing to disable/],
    ["0.8", "eval", /0.8.x servers have no "eval" API; nothing to disable/],
    ["0.7", "agents", /no "agents" API \(it is now "responses"\)/],
  ] as const)("on %s, given %s, notes that there is nothing to disable", (release, name, note) => {
    const result = ok(run(aSpec({ disabled: [name] }), release));
    expect(result.notes).toContainEqual(expect.stringMatching(note));
  });

  it("given vector_io and its dependents on 0.8, drops vector_stores defaults with it", () => {
    const config = doc(run(aSpec({ disabled: ["vectorIo", "responses", "toolRuntime"] }), "0.8"));
    expect(config.vector_stores).toBeUndefined();
    expect(config.apis).toEqual(expect.arrayContaining(["inference", "messages", "interactions"]));
  });
});
