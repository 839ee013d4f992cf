/**
 * n and n-1: every v1alpha2 sample generates on both server lines, and the result uses only
 * the API names and provider types that line has (tables in
 * tests/lib/distributions/server-rules.ts, written from each server release, independent of the generator).
 */
import { parse } from "yaml";
import { render } from "../../../lib/config/render";
import type { ConfigDoc } from "../../../lib/config/doc";
import { hasSafety } from "../../../lib/distributions/releases";
import { RELEASES } from "../../../lib/distributions/table";
import { refusedSamples, v1alpha2SampleSpecs, withoutRefused } from "../../sample-files";
import { ABSENT_APIS, PROVIDER_TYPES } from "./server-rules";

const generatedSamples = v1alpha2SampleSpecs();
const cases = RELEASES.flatMap((release) =>
  generatedSamples.map(([file, spec, configMaps]) => [release, file, spec, configMaps] as const),
);

describe("server lines", () => {
  it.each(cases)("on %s, %s uses only APIs and provider types of that line", (release, file, spec, configMaps) => {
    const result = render(spec, { release, name: "demo", configMaps });
    const asksForSafety =
      JSON.stringify(spec.providers ?? {}).includes('"safety"') || (spec.resources?.shields ?? []).length > 0;
    const refused = refusedSamples(release)[file];
    if (refused) {
      // A field the line lacks is refused with its path, and nothing else; the rest of the sample holds.
      expect(result.ok ? [] : result.errors.map((e) => e.path)).toEqual(refused);
      expect(render(withoutRefused(spec, release, file), { release, name: "demo", configMaps }).ok).toBe(true);
      return;
    }
    if (asksForSafety && !hasSafety(release)) {
      // A line without the Safety API refuses the spec, naming each field that asks for it, and nothing else.
      expect(result.ok).toBe(false);
      if (!result.ok) for (const e of result.errors) expect(e.message).toMatch(/server line has no Safety API/);
      return;
    }
    expect(result.ok).toBe(true);
    if (!result.ok || result.source !== "generated") return;
    const config = parse(result.generated.configYaml) as ConfigDoc;
    for (const api of ABSENT_APIS[release]) expect(Object.keys(config.providers)).not.toContain(api);
    for (const [api, entries] of Object.entries(config.providers)) {
      for (const entry of entries) {
        const known = PROVIDER_TYPES[release][api] ?? [];
        expect(known).toContain(entry.provider_type);
      }
    }
  });

  it("on 0.8, keeps the distribution's Claude aliases (provider_id: all) next to the user's models", () => {
    const result = render(
      {
        distribution: { name: "starter" },
        providers: { inference: { provider: "vllm", endpoint: "http://v:8000" } },
        resources: { models: ["llama3"] },
      },
      { release: "0.8" },
    );
    if (!result.ok || result.source !== "generated") throw new Error("expected a generated config");
    const models = (parse(result.generated.configYaml) as ConfigDoc).registered_resources?.models ?? [];
    expect(models.map((m) => m.provider_id)).toEqual(["all", "all", "all", "vllm"]);
  });
});
