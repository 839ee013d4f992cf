/**
 * The environment rules, on every supported line, each checked by starting the config as the
 * server would (tests/server-check/check.ts) with the Deployment's env:
 * - no config the hooks write references a bare `${env.X}` the container does not set: a
 *   registered resource that needs it is left out (postgres-demo's `${env.INFERENCE_MODEL}`),
 *   anything else fails with the variable's name and where to set it — for bundled bases,
 *   image-label bases and override ConfigMaps the hooks merge external providers into;
 * - a resource on a base provider switched on by `${env.X:+id}` stays behind the same switch.
 */
import type { V1ConfigMap } from "@kubernetes/client-node";
import { parse, stringify } from "yaml";
import { RELEASE_APIS } from "../../lib/distributions/releases";
import { RELEASES, type Release } from "../../lib/distributions/table";
import type { Condition } from "../../lib/status/conditions";
import { sync } from "../../lib/sync/sync";
import type { SyncResponse } from "../../lib/wire/metacontroller";
import { baseDoc } from "../config-helpers";
import { fixtureFound } from "../external-fixtures";
import { aConfigMap, aParent, aRequest, deps } from "../sync-builders";
import { checkServerConfig } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const vllm = { provider: "vllm", endpoint: "http://vllm:8000/v1" };
const userEnv = (env: Record<string, string>) => ({
  workload: { overrides: { env: Object.entries(env).map(([name, value]) => ({ name, value })) } },
});

/** A sync on `release`; `labelBase` stands for a base config read from the image's labels. */
function syncOn(
  release: Release,
  spec: object,
  labelBase?: string,
  related: ReturnType<typeof aConfigMap>[] = [],
): { answer: SyncResponse; started: () => string[] } {
  const request = aRequest(aParent(spec), [], related);
  const found =
    labelBase === undefined
      ? fixtureFound(spec)
      : { notes: [], base: { text: labelBase, source: "oci-label" as const, digest: `sha256:${"1".repeat(64)}` } };
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, found);
  return {
    answer,
    started: () => {
      const check = serverCheckOf(answer, request.related, release);
      if (!check) throw new Error(`nothing mounted: ${JSON.stringify(answer.status.conditions)}`);
      return checkServerConfig(check.configYaml, check.env, check.tag);
    },
  };
}

const notes = (a: SyncResponse): string[] => (a.status.notes ?? []) as string[];
const conditionMessages = (a: SyncResponse): string =>
  ((a.status.conditions ?? []) as Condition[]).map((c) => `${c.type} ${c.status} ${c.reason}: ${c.message}`).join("\n");
/** The config.yaml of the ConfigMap child (a TypeError when there is none: the test fails). */
const configYaml = (a: SyncResponse): string =>
  (a.children.find((c) => c.kind === "ConfigMap") as V1ConfigMap).data!["config.yaml"]!;

/** The bundled starter of a line with one extra provider whose config needs `${env.VAR}`. */
function baseNeeding(
  release: Release,
  variable: string,
  where: "provider" | "disabled-provider" | "switched-resource",
): string {
  const doc = baseDoc("starter", release);
  if (where === "provider")
    doc.providers.inference!.push({
      provider_id: "hosted",
      provider_type: "remote::openai",
      config: { api_key: `\${env.${variable}}` },
    });
  if (where === "disabled-provider")
    doc.providers.inference!.push({
      provider_id: `\${env.USE_HOSTED:=__disabled__}`,
      provider_type: "remote::openai",
      config: { api_key: `\${env.${variable}}` },
    });
  if (where === "switched-resource")
    doc.registered_resources!.models!.push({
      model_id: `\${env.${variable}:+m}`,
      provider_id: "all",
      provider_model_id: `\${env.${variable}}`,
      model_type: "llm",
    });
  return stringify(doc);
}

describe.each(RELEASES)("on the %s line", (release) => {
  describe("postgres-demo's bare ${env.INFERENCE_MODEL}", () => {
    it("without the variable, leaves that model out, says how to register it, and the server starts", () => {
      const run = syncOn(release, { distribution: { name: "postgres-demo" }, providers: { inference: vllm } });
      expect(notes(run.answer)).toEqual(
        expect.arrayContaining([
          expect.stringMatching(
            /registered_resources\.models\[0\] .*needs INFERENCE_MODEL, which the container does not set; add it to spec\.workload\.overrides\.env/,
          ),
        ]),
      );
      expect(run.started()).toEqual([]);
    });

    it("with the variable in workload.overrides.env, keeps the model, and the server starts", () => {
      const run = syncOn(release, {
        distribution: { name: "postgres-demo" },
        providers: { inference: vllm },
        ...userEnv({ INFERENCE_MODEL: "granite" }),
      });
      expect(configYaml(run.answer)).toContain("model_id: ${env.INFERENCE_MODEL}");
      expect(run.started()).toEqual([]);
    });

    it("an empty value counts as unset, as the server reads it", () => {
      const run = syncOn(release, {
        distribution: { name: "postgres-demo" },
        providers: { inference: vllm },
        ...userEnv({ INFERENCE_MODEL: "" }),
      });
      expect(notes(run.answer).join("\n")).toContain("needs INFERENCE_MODEL");
      expect(run.started()).toEqual([]);
    });
  });

  describe("a bare reference anywhere else, in a base read from the image's labels", () => {
    it("fails the sync with the variable's name and where to set it; nothing is mounted", () => {
      const run = syncOn(
        release,
        { distribution: { name: "starter" }, providers: { inference: vllm } },
        baseNeeding(release, "HOSTED_KEY", "provider"),
      );
      expect(run.answer.status.phase).toBe("Failed");
      expect(conditionMessages(run.answer)).toMatch(
        /ConfigGenerated False .*\$\{env\.HOSTED_KEY\} \(at providers\.inference\[\d+\]\.config\.api_key\), which the container does not set.*spec\.workload\.overrides\.env/,
      );
      expect(run.answer.children.filter((c) => c.kind === "Deployment")).toEqual([]);
    });

    it("is fine once the container sets it, and the server starts", () => {
      const run = syncOn(
        release,
        { distribution: { name: "starter" }, providers: { inference: vllm }, ...userEnv({ HOSTED_KEY: "k-1" }) },
        baseNeeding(release, "HOSTED_KEY", "provider"),
      );
      expect(run.started()).toEqual([]);
    });

    it.each(["disabled-provider", "switched-resource"] as const)(
      "is fine where the server never expands it (%s)",
      (where) => {
        const run = syncOn(
          release,
          { distribution: { name: "starter" }, providers: { inference: vllm } },
          baseNeeding(release, "NEVER_SET", where),
        );
        expect(run.started()).toEqual([]);
      },
    );
  });

  describe("an override ConfigMap", () => {
    const override = (text: string) => [aConfigMap("my-config", { "config.yaml": text })];
    it("with external providers merged in: a missing variable fails the sync, named", () => {
      const spec = {
        distribution: { name: "starter" },
        overrideConfig: { configMapName: "my-config" },
        externalProviders: { inference: [{ providerId: "custom-inference", image: "registry.example.com/custom:v1" }] },
      };
      const run = syncOn(release, spec, undefined, override(baseNeeding(release, "HOSTED_KEY", "provider")));
      expect(conditionMessages(run.answer)).toMatch(
        /ConfigGenerated False EnvironmentMissing: .*\$\{env\.HOSTED_KEY\}/,
      );
    });

    it("mounted as is: stays the user's, and status says what would stop the server", () => {
      const run = syncOn(
        release,
        { distribution: { name: "starter" }, overrideConfig: { configMapName: "my-config" } },
        undefined,
        override(baseNeeding(release, "HOSTED_KEY", "provider")),
      );
      expect(run.answer.status.phase).not.toBe("Failed");
      expect(notes(run.answer).join("\n")).toMatch(/ConfigMap my-config: config\.yaml needs \$\{env\.HOSTED_KEY\}/);
    });
  });

  describe("a model on the starter's ollama, switched on by ${env.OLLAMA_URL:+ollama}", () => {
    const spec = {
      distribution: { name: "starter" },
      providers: { inference: vllm },
      resources: { models: [{ name: "llama3.2:3b", provider: "ollama" }] },
    };

    it("stays behind the same switch, says so, and the server starts with the switch off and on", () => {
      const run = syncOn(release, spec);
      const text = configYaml(run.answer);
      expect(text).toContain("model_id: ${env.OLLAMA_URL:+llama3.2:3b}");
      expect(notes(run.answer).join("\n")).toMatch(
        /"llama3\.2:3b" is on provider "ollama", which the distribution enables only when OLLAMA_URL is set: it stays behind the same switch/,
      );
      expect(run.started()).toEqual([]);
      const on = syncOn(release, { ...spec, ...userEnv({ OLLAMA_URL: "http://ollama:11434/v1" }) });
      expect(on.started()).toEqual([]);
    });

    it("a name the switch would turn into a number is refused with the fix", () => {
      const run = syncOn(release, { ...spec, resources: { models: [{ name: "2024", provider: "ollama" }] } });
      expect(conditionMessages(run.answer)).toMatch(
        /"2024" is on provider "ollama", which is off unless OLLAMA_URL is set.*read it as int\); set OLLAMA_URL in spec\.workload\.overrides\.env/,
      );
    });
  });

  const hasSafety = RELEASE_APIS[release].includes("safety");
  (hasSafety ? it : it.skip)(
    "a shield on a safety provider switched on by a variable: it and the default shield stay behind the switch",
    () => {
      const doc = baseDoc("starter", release);
      doc.providers.safety = [
        {
          provider_id: "${env.GUARD_URL:+guard}",
          provider_type: "inline::llama-guard",
          config: { excluded_categories: [] },
        },
      ];
      doc.registered_resources!.shields = [];
      delete doc.safety;
      const spec = {
        distribution: { name: "starter" },
        providers: { inference: vllm },
        resources: { shields: ["guard-model"] },
      };
      const off = syncOn(release, spec, stringify(doc));
      const text = configYaml(off.answer);
      expect(parse(text).safety).toEqual({ default_shield_id: "${env.GUARD_URL:+guard-model}" });
      expect(off.started()).toEqual([]);
      expect(syncOn(release, { ...spec, ...userEnv({ GUARD_URL: "on" }) }, stringify(doc)).started()).toEqual([]);
    },
  );
});
