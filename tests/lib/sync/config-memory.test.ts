/**
 * Each parent's last generated config (lib/sync/config-memory.ts), reused while its spec and
 * every other input of `generate()` are the same: each input changed alone generates again,
 * and a reused config gives the answer a fresh sync gives, byte for byte.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import * as generation from "../../../lib/config/generate";
import type { GenerateResult } from "../../../lib/config/generate";
import { syncRemembered, syncWith } from "../../../lib/sync";
import { configMemory } from "../../../lib/sync/config-memory";
import { createSyncMemo, type MemoConfig, type SyncMemo } from "../../../lib/sync/memo";
import type { GenerationInputs } from "../../../lib/sync/plan-types";
import { plainSyncWith } from "../../plain-path";
import type { KubeObject, SyncRequest } from "../../../lib/wire/metacontroller";
import {
  aParent,
  aRequest,
  aSecret,
  deps,
  numberedParent,
  sampleRequest,
  stamped,
  steadyState,
} from "../../sync-builders";

const vllm = { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } };
const SPEC = { distribution: { name: "starter" }, providers: { inference: vllm } };
const INPUTS: GenerationInputs = { base: "bundled", release: "1.3", name: "demo" };

function generatedOf(configYaml: string): MemoConfig["generated"] {
  return {
    ok: true,
    configYaml,
    hash: configYaml,
    secretEnv: [],
    plainEnv: [],
    providerCount: 0,
    resourceCount: 0,
    configVersion: 2,
    secretTargets: [],
    notes: [],
  };
}
const ok = (configYaml: string): GenerateResult => generatedOf(configYaml);

describe("configMemory()", () => {
  const parent = (spec: object = SPEC, apiVersion = "llamastack.io/v1alpha2"): KubeObject => ({
    ...aParent(spec),
    apiVersion,
  });
  const kept = (): MemoConfig => ({ spec: JSON.stringify(SPEC), ...INPUTS, generated: generatedOf("kept") });

  it("gives back the kept config when the spec and every input are the same, without generating", () => {
    const generate = jest.fn(() => ok("new"));
    const memory = configMemory(parent(), kept());

    const result = memory.remember!(INPUTS, generate);

    expect(generate).not.toHaveBeenCalled();
    expect(result).toMatchObject({ configYaml: "kept" });
    expect(memory.kept()?.generated.configYaml).toBe("kept");
  });

  it.each<[string, KubeObject, GenerationInputs]>([
    ["the spec", parent({ ...SPEC, workload: { replicas: 2 } }), INPUTS],
    ["the base config", parent(), { ...INPUTS, base: "oci-label@sha256:1" }],
    ["the server line", parent(), { ...INPUTS, release: "0.8" }],
    ["the CR's name", parent(), { ...INPUTS, name: "other" }],
  ])("generates again when %s changed, and keeps the new config (frozen)", (_, p, inputs) => {
    const generate = jest.fn(() => ok("new"));
    const memory = configMemory(p, kept());

    expect(memory.remember!(inputs, generate)).toMatchObject({ configYaml: "new" });
    expect(generate).toHaveBeenCalledTimes(1);
    expect(memory.kept()).toMatchObject({ ...inputs, spec: JSON.stringify(p.spec) });
    expect(Object.isFrozen(memory.kept()?.generated)).toBe(true);
  });

  it("keeps the old config when generating fails", () => {
    const failed: GenerateResult = { ok: false, errors: [{ path: "spec", message: "no" }], notes: [] };
    const memory = configMemory(parent({ other: true }), kept());

    expect(memory.remember!(INPUTS, () => failed)).toBe(failed);
    expect(memory.kept()?.generated.configYaml).toBe("kept");
  });

  it("offers nothing for a v1alpha1 parent: its spec is converted with its annotations first", () => {
    const memory = configMemory(parent({ server: {} }, "llamastack.io/v1alpha1"), kept());
    expect(memory.remember).toBeUndefined();
    expect(memory.kept()?.generated.configYaml).toBe("kept");
  });
});

describe("syncRemembered with generated configs kept", () => {
  const newMemo = (configBytes = 2 ** 24): SyncMemo =>
    createSyncMemo({ maxBytes: 2 ** 24, configBytes, idleMs: 60_000, now: () => 0 });
  const first = (): Promise<SyncRequest> =>
    steadyState(aRequest(stamped(aParent(SPEC)), [], [stamped(aSecret("creds", { token: "t0ken" }))]), (r) =>
      syncWith(r, deps(), undefined),
    );
  /** The same parent at a new resourceVersion: a status write, or an edit of `spec`. */
  const next = (r: SyncRequest, version: string, spec: object = r.parent.spec ?? {}): SyncRequest => ({
    ...r,
    parent: stamped({ ...r.parent, spec, status: { ...(r.parent.status ?? {}), phase: `seen-${version}` } }, version),
  });
  /** The oracle: the plain path, every cache off (a fresh module registry). */
  const fresh = async (r: SyncRequest): Promise<string> => JSON.stringify(await plainSyncWith(r, deps(), undefined));

  afterEach(() => jest.restoreAllMocks());

  it("a resync at a new resourceVersion with the same spec reuses the config, and answers as a fresh sync", async () => {
    const memo = newMemo();
    const request = await first();
    await syncRemembered(request, deps(), { memo });
    const spy = jest.spyOn(generation, "generate");

    const answers = [];
    for (const version of ["8", "9", "10"]) {
      const r = next(request, version);
      answers.push([(await syncRemembered(r, deps(), { memo })).body.toString("utf8"), await fresh(r)]);
    }

    expect(spy).not.toHaveBeenCalled(); // the plain path's fresh syncs run in their own module registry
    for (const [remembered, expected] of answers) expect(remembered).toBe(expected);
    expect(memo.configStats().entries).toBe(1);
  });

  const SAMPLES = join(__dirname, "..", "..", "..", "samples");
  it.each(
    readdirSync(SAMPLES)
      .filter((f) => f.endsWith(".yaml"))
      .sort(),
  )("%s: resynced after a status write, it answers as a fresh sync", async (file) => {
    const memo = newMemo();
    const request = await steadyState(sampleRequest(join(SAMPLES, file)), (r) => syncWith(r, deps(), undefined));
    await syncRemembered(request, deps(), { memo });
    const r = next(request, "8");

    expect((await syncRemembered(r, deps(), { memo })).body.toString("utf8")).toBe(await fresh(r));
  });

  it("an edited spec generates again, and the answer is the fresh one", async () => {
    const memo = newMemo();
    const request = await first();
    await syncRemembered(request, deps(), { memo });
    const edited = next(request, "8", { ...SPEC, workload: { replicas: 3 } });
    const spy = jest.spyOn(generation, "generate");

    const answer = (await syncRemembered(edited, deps(), { memo })).body.toString("utf8");

    expect(spy).toHaveBeenCalledTimes(1);
    expect(answer).toBe(await fresh(edited));
  });

  it("keeps no config for parents without resourceVersion (`llsd request`: every such CR has one uid), as docs/design.md says", async () => {
    const memo = newMemo();
    const unstamped = (spec: object): SyncRequest => {
      const parent = aParent(spec);
      const metadata = { ...parent.metadata, uid: "00000000-0000-0000-0000-000000000001" };
      return aRequest({ ...parent, metadata }, [], [aSecret("creds", { token: "t0ken" })]);
    };
    const spy = jest.spyOn(generation, "generate");
    const requests = [unstamped(SPEC), unstamped(SPEC), unstamped({ ...SPEC, workload: { replicas: 2 } })];

    const answers = [];
    for (const r of requests)
      answers.push([(await syncRemembered(r, deps(), { memo })).body.toString("utf8"), await fresh(r)]);

    expect(memo.configStats()).toEqual({ entries: 0, bytes: 0 });
    expect(spy).toHaveBeenCalledTimes(requests.length); // each remembered call generated (the plain path's are not counted)
    for (const [remembered, expected] of answers) expect(remembered).toBe(expected);
  });

  it("keeps no config with its share off, and still answers", async () => {
    const memo = newMemo(0);
    const request = await first();
    await syncRemembered(request, deps(), { memo });
    const r = next(request, "8");
    expect((await syncRemembered(r, deps(), { memo })).body.toString("utf8")).toBe(await fresh(r));
    expect(memo.configStats()).toEqual({ entries: 0, bytes: 0 });
  });
});

describe("the generated configs' bound", () => {
  const parentNumber = (i: number): Promise<SyncRequest> =>
    numberedParent(i, SPEC, (q) => syncWith(q, deps(), undefined));

  it("holds at most its bytes, dropping the least recently used parent's config", async () => {
    const probe = createSyncMemo({ maxBytes: 0, configBytes: 2 ** 24, idleMs: 60_000, now: () => 0 });
    await syncRemembered(await parentNumber(0), deps(), { memo: probe });
    const one = probe.configStats().bytes;
    expect(one).toBeGreaterThan(0);

    const memo = createSyncMemo({ maxBytes: 0, configBytes: one * 40, idleMs: 60_000, now: () => 0 });
    for (let i = 0; i < 45; i++) await syncRemembered(await parentNumber(i), deps(), { memo });

    expect(memo.configStats()).toEqual({ entries: 40, bytes: one * 40 });
    expect(memo.config("uid-0000")).toBeUndefined();
    expect(memo.config("uid-0044")).toBeDefined();
  });

  it("drops a config unused for idleMs once a later config is kept (a deleted parent's does not linger)", async () => {
    let now = 0;
    const memo = createSyncMemo({ maxBytes: 0, configBytes: 2 ** 24, idleMs: 60_000, now: () => now });
    await syncRemembered(await parentNumber(0), deps(), { memo });
    now += 2 * 60_000 + 1;
    await syncRemembered(await parentNumber(1), deps(), { memo });

    expect(memo.configStats().entries).toBe(1);
    expect(memo.config("uid-0001")).toBeDefined();
  });

  it("keeps no config above 1/32 of its bytes: a huge spec's config is generated every time", async () => {
    const probe = createSyncMemo({ maxBytes: 0, configBytes: 2 ** 24, idleMs: 60_000, now: () => 0 });
    await syncRemembered(await parentNumber(0), deps(), { memo: probe });
    const memo = createSyncMemo({
      maxBytes: 0,
      configBytes: probe.configStats().bytes * 32 - 32,
      idleMs: 60_000,
      now: () => 0,
    });
    await syncRemembered(await parentNumber(0), deps(), { memo });
    expect(memo.configStats()).toEqual({ entries: 0, bytes: 0 });
  });
});
