/** Which line an image runs: named by its label or tag, or the nearest that fits — never silently. */
import { chooseLine, lineOfVersion } from "../../../lib/distributions/detect";
import { RELEASES } from "../../../lib/distributions/table";

const digest = "sha256:" + "d".repeat(64);

describe("chooseLine: an image that names a supported line", () => {
  it.each([
    [{ image: "docker.io/ogxai/distribution-starter:1.3.0" }, "1.3"],
    [{ image: "docker.io/ogxai/distribution-starter:1.2.2" }, "1.2"],
    [{ image: "docker.io/ogxai/distribution-starter:v1.2.0" }, "1.2"],
    [{ image: `quay.io/acme/starter@${digest}`, labelVersion: "1.2.2" }, "1.2"],
    [{ image: "docker.io/ogx/distribution-starter:0.8.1" }, "0.8"],
    [{ image: "docker.io/llamastack/distribution-starter:0.7.1" }, "0.7"],
    [{ image: `quay.io/acme/starter@${digest}`, labelVersion: "1.3.0" }, "1.3"],
    [{ image: "quay.io/acme/starter:0.8.0", labelVersion: "v1.3.1" }, "1.3"], // the label is the image's own word
    [{ image: "quay.io/acme/starter:0.7.1", labelVersion: "not a version" }, "0.7"], // an unreadable label: the tag
  ])("%j → %s, with no note", (evidence, release) => {
    expect(chooseLine(evidence)).toEqual({ release });
  });
});

describe("chooseLine: a version no line names", () => {
  it.each([
    ["1.5.0", "1.3", "older"],
    ["1.4.2", "1.3", "older"],
    ["v1.1.3", "1.2", "newer"],
    ["1.0.0", "1.2", "newer"],
    ["0.9.0", "0.8", "older"],
    ["2.0.0", "1.3", "older"],
    ["0.6.0", "0.7", "newer"],
  ])("tag %s → the %s line, and a note that says so", (tag, release, relation) => {
    const image = `docker.io/ogxai/distribution-starter:${tag}`;
    const choice = chooseLine({ image });
    expect(choice.release).toBe(release);
    expect(choice.note).toContain(
      `server version ${tag} (tag of ${image}) is not a line these hooks know (supported lines: ${RELEASES.join(", ")})`,
    );
    expect(choice.note).toContain(
      `written for the ${release} line, the nearest that fits (${relation} than the server)`,
    );
  });

  it("never renders a 1.x image as a 0.x line", () => {
    for (const minor of [0, 1, 2, 4, 5, 9])
      expect(chooseLine({ image: `quay.io/x/y:1.${minor}.0` }).release).toMatch(/^1\./);
  });

  it("reads a label version before the tag", () => {
    const choice = chooseLine({ image: "quay.io/acme/starter:0.8.0", labelVersion: "1.5.0" });
    expect(choice.release).toBe("1.3");
    expect(choice.note).toContain("(version label of quay.io/acme/starter:0.8.0)");
  });
});

describe("chooseLine: an image that names no version", () => {
  it.each([
    [`docker.io/ogxai/distribution-starter@${digest}`, "1.3", "the newest line its repository publishes"],
    ["docker.io/llamastack/distribution-starter:latest", "0.7", "the newest line its repository publishes"],
    [`docker.io/ogx/distribution-starter@${digest}`, "0.8", "the newest line its repository publishes"],
    [`quay.io/acme/starter@${digest}`, "1.3", "the newest line"],
    ["quay.io/acme/starter:main", "1.3", "the newest line"],
  ])("%s → %s (%s), said in a note", (image, release, why) => {
    const choice = chooseLine({ image });
    expect(choice.release).toBe(release);
    expect(choice.note).toBe(
      `${image} names no version (neither a version tag nor a version label); the config is written for the ${release} line, ${why} (supported lines: ${RELEASES.join(", ")}); use a version tag to choose`,
    );
  });

  it("follows the line of the table entry it replaced, and says so", () => {
    const image = `quay.io/acme/starter@${digest}`;
    expect(chooseLine({ image, tableRelease: "0.8" })).toEqual({
      release: "0.8",
      note: `${image} names no version (neither a version tag nor a version label); the config is written for the 0.8 line of the distribution entry it replaces`,
    });
  });
});

describe("lineOfVersion", () => {
  it.each([
    ["0.7.1", "0.7"],
    ["1.3.0-rc1", "1.3"],
    ["v0.8.0+build.2", "0.8"],
  ])("%s → %s", (version, release) => {
    expect(lineOfVersion(version, "test")).toEqual({ release });
  });

  it.each(["", "latest", "1", "x1.3.0"])("%j is no version", (version) => {
    expect(lineOfVersion(version, "test")).toBeUndefined();
  });
});
