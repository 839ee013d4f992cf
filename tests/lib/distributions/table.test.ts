import { parseImageRef } from "../../../lib/distributions/image-ref";
import {
  DEFAULT_DISTRIBUTIONS,
  DEFAULT_RELEASE,
  GO_OPERATOR_DISTRIBUTIONS,
  RELEASES,
  distributionNames,
  findDistribution,
  releaseOfImage,
  releaseOfVersion,
  withOverrides,
} from "../../../lib/distributions/table";

describe("the default distribution table", () => {
  it("maps starter and postgres-demo to pinned OGX 1.3.0 images (ogxai/, with config labels)", () => {
    expect(DEFAULT_DISTRIBUTIONS).toEqual([
      { name: "postgres-demo", image: "docker.io/ogxai/distribution-postgres-demo:1.3.0", release: "1.3" },
      { name: "starter", image: "docker.io/ogxai/distribution-starter:1.3.0", release: "1.3" },
    ]);
  });

  it("keeps the Go operator's 0.7.1 images for v1alpha1 CRs, under the same names", () => {
    expect(GO_OPERATOR_DISTRIBUTIONS).toEqual([
      { name: "postgres-demo", image: "docker.io/llamastack/distribution-postgres-demo:0.7.1", release: "0.7" },
      { name: "starter", image: "docker.io/llamastack/distribution-starter:0.7.1", release: "0.7" },
    ]);
    expect(distributionNames(GO_OPERATOR_DISTRIBUTIONS)).toEqual(distributionNames());
  });

  it.each([...DEFAULT_DISTRIBUTIONS, ...GO_OPERATOR_DISTRIBUTIONS].map((entry) => [entry.image, entry] as const))(
    "records the release that %s's tag says",
    (_image, entry) => {
      expect(releaseOfImage(entry.image)).toBe(entry.release);
    },
  );

  it("lists releases oldest first and defaults to the newest, the current one", () => {
    expect(RELEASES).toEqual(["0.7", "0.8", "1.2", "1.3"]);
    expect(DEFAULT_RELEASE).toBe(RELEASES[RELEASES.length - 1]);
    for (const entry of DEFAULT_DISTRIBUTIONS) expect(entry.release).toBe(DEFAULT_RELEASE);
  });

  it("lists names sorted, whatever the table order", () => {
    const reversed = [...DEFAULT_DISTRIBUTIONS].reverse();
    expect(distributionNames(reversed)).toEqual(["postgres-demo", "starter"]);
  });

  it.each([
    ["starter", "docker.io/ogxai/distribution-starter:1.3.0"],
    ["remote-vllm", undefined],
    ["Starter", undefined],
  ])("finds %s → %s", (name, image) => {
    expect(findDistribution(name)?.image).toBe(image);
  });
});

describe("releaseOfImage", () => {
  it.each([
    ["docker.io/llamastack/distribution-starter:0.7.1", "0.7"],
    ["docker.io/llamastack/distribution-starter:v0.8.0", "0.8"],
    ["docker.io/ogx/distribution-postgres-demo:0.8.2", "0.8"],
    ["ogx/distribution-starter:0.8.0-rc1", "0.8"],
    ["localhost:5000/mirror/starter:0.7.0@sha256:" + "a".repeat(64), "0.7"],
    ["0.8.0", "0.8"],
    ["v0.7.1-rc1", "0.7"],
    ["docker.io/ogxai/distribution-starter:1.3.0", "1.3"],
    ["docker.io/ogxai/distribution-starter:v1.3.2", "1.3"],
    ["docker.io/ogxai/distribution-starter:1.5.0", undefined],
    ["docker.io/llamastack/distribution-starter:latest", undefined],
    ["docker.io/llamastack/distribution-starter", undefined],
    ["docker.io/llamastack/distribution-starter@sha256:" + "b".repeat(64), undefined],
    ["docker.io/llamastack/distribution-starter:0.6.1", undefined],
    ["docker.io/llamastack/distribution-starter:0.70.0", undefined],
    ["localhost:5000/starter", undefined],
    ["not an image", undefined],
  ])("%s → %s", (ref, release) => {
    expect(releaseOfImage(ref)).toBe(release);
  });
});

describe("releaseOfVersion", () => {
  it.each([
    ["0.7.1", "0.7"],
    ["v0.8.0", "0.8"],
    ["0.8", "0.8"],
    ["0.8.0+build.5", "0.8"],
    ["1.3.0", "1.3"],
    ["1.3", "1.3"],
    ["1.0.0", undefined],
    ["1.5.0", undefined],
    ["0.9.0", undefined],
    ["latest", undefined],
    ["", undefined],
    ["0.7.1 ", undefined],
  ])("%j → %s", (version, release) => {
    expect(releaseOfVersion(version)).toBe(release);
  });
});

describe("parseImageRef", () => {
  it.each([
    ["localhost:5000/starter", { repository: "localhost:5000/starter" }],
    ["quay.io/acme/starter:0.8.0", { repository: "quay.io/acme/starter", tag: "0.8.0" }],
    ["Quay.io/Acme/starter:1", undefined],
    ["quay.io/acme/starter:", undefined],
    ["quay.io/acme/starter@sha256:short", undefined],
  ])("%s → %j", (ref, parsed) => {
    expect(parseImageRef(ref)).toEqual(parsed);
  });
});

describe("withOverrides", () => {
  const digest = "sha256:" + "c".repeat(64);

  it.each([
    ["a version tag", "quay.io/acme/starter:0.7.1", "0.7"],
    ["an OGX image", "docker.io/ogx/distribution-starter:0.8.0", "0.8"],
    ["a digest (release stays)", `quay.io/acme/starter@${digest}`, "1.3"],
    ["latest pinned by digest", `quay.io/acme/starter:latest@${digest}`, "1.3"],
    ["an unknown version tag (release stays)", "quay.io/acme/starter:2026.05", "1.3"],
  ])("applies %s, marked as the operator's choice", (_case, image, release) => {
    const { table, problems } = withOverrides(DEFAULT_DISTRIBUTIONS, { starter: image });
    expect(problems).toEqual([]);
    expect(findDistribution("starter", table)).toEqual({ name: "starter", image, release, overridden: true });
    expect(findDistribution("postgres-demo", table)).toBe(findDistribution("postgres-demo"));
  });

  it.each([
    ["a :latest tag", "quay.io/acme/starter:latest", /uses :latest/],
    ["no tag or digest", "quay.io/acme/starter", /neither a tag nor a digest/],
    ["a malformed reference", "quay.io/acme/starter:0.7 1", /not an image reference/],
    ["an empty reference", "", /not an image reference/],
  ])("rejects %s and keeps the pinned default", (_case, image, reason) => {
    const { table, problems } = withOverrides(DEFAULT_DISTRIBUTIONS, { starter: image });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^image override "starter" ignored: /);
    expect(problems[0]).toMatch(reason);
    expect(table).toEqual(DEFAULT_DISTRIBUTIONS);
  });

  it("reports unknown names with the available ones, in name order, and applies the rest", () => {
    const { table, problems } = withOverrides(DEFAULT_DISTRIBUTIONS, {
      "remote-vllm": "quay.io/acme/vllm:1.0",
      "meta-reference-gpu": "quay.io/acme/gpu:1.0",
      "postgres-demo": "quay.io/acme/pg:0.8.0",
    });
    expect(problems).toEqual([
      'image override "meta-reference-gpu" ignored: not a distribution name (available: "postgres-demo", "starter")',
      'image override "remote-vllm" ignored: not a distribution name (available: "postgres-demo", "starter")',
    ]);
    expect(distributionNames(table)).toEqual(["postgres-demo", "starter"]);
    expect(findDistribution("postgres-demo", table)).toEqual({
      name: "postgres-demo",
      image: "quay.io/acme/pg:0.8.0",
      release: "0.8",
      overridden: true,
    });
  });

  it("never returns a :latest image, whatever the overrides", () => {
    const { table } = withOverrides(DEFAULT_DISTRIBUTIONS, { starter: "a/b:latest", "postgres-demo": "c/d" });
    for (const entry of table) expect(entry.image).not.toMatch(/:latest$|^[^:@]*$/);
  });
});
