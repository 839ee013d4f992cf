/** Pure helpers of lib/oci: which label wins, version labels, base64 strictness, failure backoff. */
import { failureDelayMs } from "../../lib/oci/cache";
import {
  decodeBase64Label,
  MISSING_CONFIG_LABELS_MESSAGE,
  MISSING_CONFIG_LABELS_REASON,
  normalizeTarPath,
  planFromLabels,
  versionFromLabels,
} from "../../lib/oci/labels";
import type { Descriptor } from "../../lib/oci/types";

const b64 = (s: string): string => Buffer.from(s).toString("base64");
const layer = (c: string): Descriptor => ({
  mediaType: "application/vnd.oci.image.layer.v1.tar+gzip",
  digest: `sha256:${c.repeat(64)}`,
  size: 10,
});
const LAYERS = [layer("a"), layer("b")];

describe("planFromLabels()", () => {
  const all = {
    "io.llamastack.config.base64": b64("base64"),
    "io.llamastack.config.layer": LAYERS[1]?.digest ?? "",
    "io.llamastack.config.path": "/app/config.yaml",
    "com.ogx.config.config.yaml": b64("ogx"),
    "com.llamastack.config.config.yaml": b64("llamastack"),
  };
  const without = (...names: string[]) => Object.fromEntries(Object.entries(all).filter(([k]) => !names.includes(k)));

  test("order: base64, then layer + path, then com.ogx, then com.llamastack", () => {
    expect(planFromLabels(all, LAYERS, 1000)).toEqual({ ok: true, value: { kind: "base64", config: "base64" } });
    expect(planFromLabels(without("io.llamastack.config.base64"), LAYERS, 1000)).toEqual({
      ok: true,
      value: { kind: "layer", layer: LAYERS[1], path: "app/config.yaml" },
    });
    const upstream = without("io.llamastack.config.base64", "io.llamastack.config.layer", "io.llamastack.config.path");
    expect(planFromLabels(upstream, LAYERS, 1000)).toEqual({ ok: true, value: { kind: "upstream", config: "ogx" } });
    expect(
      planFromLabels(
        without(
          "io.llamastack.config.base64",
          "io.llamastack.config.layer",
          "io.llamastack.config.path",
          "com.ogx.config.config.yaml",
        ),
        LAYERS,
        1000,
      ),
    ).toEqual({ ok: true, value: { kind: "upstream", config: "llamastack" } });
    expect(planFromLabels({ "org.opencontainers.image.title": "x" }, LAYERS, 1000)).toEqual({
      ok: true,
      value: { kind: "none" },
    });
  });

  test("default-config picks the file label; an empty base64 label counts as absent", () => {
    const labels = {
      "io.llamastack.config.base64": " ",
      "com.ogx.distribution.default-config": "run.yaml",
      "com.ogx.config.run.yaml": b64("run"),
      "com.ogx.config.config.yaml": b64("cfg"),
    };
    expect(planFromLabels(labels, LAYERS, 1000)).toEqual({ ok: true, value: { kind: "upstream", config: "run" } });
  });

  test.each([
    [
      { "io.llamastack.config.layer": "sha256:" + "f".repeat(64), "io.llamastack.config.path": "a" },
      /names no layer of this image/,
    ],
    [{ "io.llamastack.config.layer": "7", "io.llamastack.config.path": "a" }, /names no layer of this image/],
    [
      { "io.llamastack.config.layer": "0", "io.llamastack.config.path": "../etc/passwd" },
      /is not a file path inside the layer/,
    ],
    [{ "io.llamastack.config.layer": "0" }, /io\.llamastack\.config\.path is missing/],
  ])("broken layer labels: %j", (labels, message) => {
    const plan = planFromLabels(labels, LAYERS, 1000);
    expect(plan).toMatchObject({ ok: false, error: { reason: "InvalidConfigLabel", transient: false } });
    expect(!plan.ok && plan.error.message).toMatch(message);
  });
});

describe("decodeBase64Label()", () => {
  test("strict base64 (whitespace allowed), UTF-8 only, size bounded after decoding", () => {
    expect(decodeBase64Label("l", `${b64("héllo").slice(0, 4)}\n${b64("héllo").slice(4)}`, 100)).toEqual({
      ok: true,
      value: "héllo",
    });
    expect(decodeBase64Label("l", "abc", 100)).toMatchObject({
      ok: false,
      error: { message: "label l is not valid base64" },
    });
    expect(decodeBase64Label("l", "a*bc", 100)).toMatchObject({ ok: false });
    expect(decodeBase64Label("l", Buffer.from([0xff, 0xfe]).toString("base64"), 100)).toMatchObject({
      ok: false,
      error: { message: "label l is not UTF-8 text" },
    });
    expect(decodeBase64Label("l", b64("x".repeat(101)), 100)).toMatchObject({
      ok: false,
      error: { reason: "ImageContentTooLarge" },
    });
  });
});

test("versionFromLabels(): com.ogx.distribution.version, then org.opencontainers.image.version, then io.llamastack.config.version", () => {
  const labels = {
    "io.llamastack.config.version": "2",
    "org.opencontainers.image.version": "0.7.1",
    "com.ogx.distribution.version": "v0.8.0",
  };
  expect(versionFromLabels(labels)).toBe("v0.8.0");
  expect(versionFromLabels({ ...labels, "com.ogx.distribution.version": "" })).toBe("0.7.1");
  expect(versionFromLabels({ "io.llamastack.config.version": "2" })).toBe("2");
  expect(versionFromLabels({})).toBeUndefined();
});

test.each([
  ["/app/config.yaml", "app/config.yaml"],
  ["./app/config.yaml", "app/config.yaml"],
  ["app/config.yaml", "app/config.yaml"],
])("normalizeTarPath(%s)", (path, expected) => {
  expect(normalizeTarPath(path)).toBe(expected);
});

test("the missing-labels reason and message the caller reports (docs/registries.md)", () => {
  expect(MISSING_CONFIG_LABELS_REASON).toBe("MissingConfigLabels");
  expect(MISSING_CONFIG_LABELS_MESSAGE).toBe(
    "Direct image references require either overrideConfig.configMapName or OCI config labels on the image. See docs/configuration.md for details.",
  );
});

test("failure backoff doubles per consecutive failure up to the cap", () => {
  expect([1, 2, 3, 4, 5, 10].map((n) => failureDelayMs(n, 1000, 8000))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
});
