/**
 * Operator image overrides (DISTRIBUTION_IMAGES_FILE): a mounted YAML/JSON map of distribution
 * name → image, applied with withOverrides, re-read when it changes; problems are logged and
 * noted in the status of the parents they concern; status shows the image in use.
 */
import { mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { V1Deployment } from "@kubernetes/client-node";
import { DEFAULT_DISTRIBUTIONS } from "../../../lib/distributions/table";
import { imageOverrides } from "../../../lib/sync";
import { syncSettingsFromEnv } from "../../../hooks/sync-settings";
import { createImageOverrides, parseImageOverrides } from "../../../lib/sync/image-overrides";
import { sync, type SyncDeps } from "../../../lib/sync/sync";
import type { SyncResponse } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, deps } from "../../sync-builders";
import { only } from "../children/models";

const MIRROR = `quay.io/acme/distribution-starter@sha256:${"b".repeat(64)}`;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "llsd-overrides-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

const imageOf = (r: SyncResponse): string =>
  (only(r.children, "Deployment") as unknown as V1Deployment).spec!.template.spec!.containers[0]!.image!;

describe("parseImageOverrides()", () => {
  it.each([
    ["YAML", `starter: ${MIRROR}\n`],
    ["JSON", JSON.stringify({ starter: MIRROR })],
    ["the Go operator's image-overrides value", `# mirrors\nstarter: "${MIRROR}"\n`],
  ])("reads %s", (_title, text) => {
    expect(parseImageOverrides(text)).toEqual({ ok: true, overrides: { starter: MIRROR }, problems: [] });
  });

  it("takes an empty file as no overrides and reports what is not a map or not a string", () => {
    expect(parseImageOverrides("")).toEqual({ ok: true, overrides: {}, problems: [] });
    expect(parseImageOverrides("- starter\n")).toEqual({
      ok: false,
      error: "must be a map of distribution name → image",
    });
    expect(parseImageOverrides("starter: [a]\n")).toEqual({
      ok: true,
      overrides: {},
      problems: ['image override "starter" ignored: the image must be a non-empty string'],
    });
    expect(parseImageOverrides("starter: {\n")).toEqual({
      ok: false,
      error: expect.stringMatching(/^is not YAML or JSON \(/),
    });
  });
});

describe("createImageOverrides()", () => {
  it("applies the file with withOverrides and logs what it loaded", () => {
    const lines: unknown[] = [];
    const file = write(
      "images.yaml",
      `starter: ${MIRROR}\nremote-vllm: quay.io/x:1\npostgres-demo: docker.io/llamastack/distribution-postgres-demo:latest\n`,
    );
    const overrides = createImageOverrides(file, DEFAULT_DISTRIBUTIONS, {
      log: (level, message, fields) => lines.push({ level, message, fields }),
    });
    const { table, problems } = overrides.current();
    expect(table.find((e) => e.name === "starter")).toEqual({
      name: "starter",
      image: MIRROR,
      release: "1.3",
      overridden: true,
    });
    expect(table.find((e) => e.name === "postgres-demo")?.image).toBe(
      "docker.io/ogxai/distribution-postgres-demo:1.3.0",
    );
    expect(problems).toEqual([
      'image override "postgres-demo" ignored: "docker.io/llamastack/distribution-postgres-demo:latest" uses :latest, which moves under running servers; pin a version tag (e.g. :0.7.1) or a digest',
      'image override "remote-vllm" ignored: not a distribution name (available: "postgres-demo", "starter")',
    ]);
    expect(lines).toEqual([
      {
        level: "warn",
        message: "Distribution image overrides loaded",
        fields: expect.objectContaining({ file, problems }),
      },
    ]);
  });

  it("re-reads the file when it changes (as a ConfigMap volume swaps it), at most every checkEveryMs", () => {
    let now = 0;
    const file = write("images.yaml", `starter: ${MIRROR}\n`);
    const overrides = createImageOverrides(file, DEFAULT_DISTRIBUTIONS, { now: () => now, checkEveryMs: 1000 });
    expect(overrides.current().table.find((e) => e.name === "starter")?.image).toBe(MIRROR);
    const next = write("images.next", "starter: quay.io/acme/distribution-starter:0.8.0\n");
    renameSync(next, file);
    now = 500;
    expect(overrides.current().table.find((e) => e.name === "starter")?.image).toBe(MIRROR);
    now = 1000;
    expect(overrides.current().table.find((e) => e.name === "starter")).toEqual({
      name: "starter",
      image: "quay.io/acme/distribution-starter:0.8.0",
      release: "0.8",
      overridden: true,
    });
  });

  it("keeps the last good table when the file disappears or breaks, and says so", () => {
    let now = 0;
    const file = write("images.yaml", `starter: ${MIRROR}\n`);
    const overrides = createImageOverrides(file, DEFAULT_DISTRIBUTIONS, { now: () => now, checkEveryMs: 1 });
    rmSync(file);
    now = 10;
    expect(overrides.current()).toEqual({
      table: expect.arrayContaining([expect.objectContaining({ name: "starter", image: MIRROR })]),
      problems: [`DISTRIBUTION_IMAGES_FILE ${file} cannot be read (ENOENT); using the images it named before`],
    });
    write("images.yaml", "starter: [\n");
    now = 20;
    expect(overrides.current().table.find((e) => e.name === "starter")?.image).toBe(MIRROR);
    expect(overrides.current().problems).toEqual([
      expect.stringMatching(new RegExp(`^DISTRIBUTION_IMAGES_FILE ${file} is not YAML or JSON`)),
    ]);
  });

  it("without the variable, is the built-in table", () => {
    const overridesFromEnv = (env: NodeJS.ProcessEnv) => imageOverrides(syncSettingsFromEnv(env).imageOverridesFile);
    expect(overridesFromEnv({}).current()).toEqual({ table: DEFAULT_DISTRIBUTIONS, problems: [] });
    const file = write("images.json", JSON.stringify({ starter: MIRROR }));
    expect(
      overridesFromEnv({ DISTRIBUTION_IMAGES_FILE: file })
        .current()
        .table.find((e) => e.name === "starter")?.image,
    ).toBe(MIRROR);
  });
});

describe("in the sync", () => {
  const withFile = (text: string): SyncDeps => {
    const { table, problems } = createImageOverrides(write("images.yaml", text), DEFAULT_DISTRIBUTIONS).current();
    return { ...deps(), distributions: table, ...(problems.length > 0 ? { imageOverrideProblems: problems } : {}) };
  };

  it("runs the overridden image and shows it in resolvedDistribution and availableDistributions", () => {
    const r = sync(aRequest(aParent({ distribution: { name: "starter" } })), withFile(`starter: ${MIRROR}\n`));
    expect(imageOf(r)).toBe(MIRROR);
    expect(r.status.resolvedDistribution).toEqual(expect.objectContaining({ image: MIRROR }));
    expect((r.status.distributionConfig as { availableDistributions: object }).availableDistributions).toEqual(
      expect.objectContaining({ starter: MIRROR }),
    );
  });

  it("notes a problem in the status of the parents it concerns only", () => {
    const d = withFile(`starter: ${MIRROR}\npostgres-demo: docker.io/llamastack/distribution-postgres-demo\n`);
    const demo = sync(aRequest(aParent({ distribution: { name: "postgres-demo" } })), d);
    expect(demo.status.notes).toEqual([
      expect.stringMatching(/^image override "postgres-demo" ignored: .* has neither a tag nor a digest/),
      // postgres-demo without spec.storage: its stores at localhost (tests/lib/sync/loopback-backends.test.ts).
      expect.stringMatching(/^storage\.backends\.kv_default: .* at localhost/),
      expect.stringMatching(/^storage\.backends\.sql_default: .* at localhost/),
    ]);
    expect(imageOf(demo)).toBe("docker.io/ogxai/distribution-postgres-demo:1.3.0");
    // The mirror is pinned by digest only: which line it runs is an assumption, and the status says so.
    const assumed = `spec.distribution: ${MIRROR} names no version (neither a version tag nor a version label); the config is written for the 1.3 line of the distribution entry it replaces`;
    expect(sync(aRequest(aParent({ distribution: { name: "starter" } })), d).status.notes).toEqual([assumed]);
    expect(
      sync(aRequest(aParent({ distribution: { image: "quay.io/x/y:0.7.1" } })), {
        ...d,
        imageOverrideProblems: ["DISTRIBUTION_IMAGES_FILE /x cannot be read (ENOENT); using the built-in images"],
      }).status.notes,
    ).toBeUndefined();
    expect(
      sync(aRequest(aParent({ distribution: { name: "starter" } })), {
        ...d,
        imageOverrideProblems: ["DISTRIBUTION_IMAGES_FILE /x cannot be read (ENOENT); using the built-in images"],
      }).status.notes,
    ).toEqual(["DISTRIBUTION_IMAGES_FILE /x cannot be read (ENOENT); using the built-in images", assumed]);
  });
});
