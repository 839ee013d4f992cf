/** The one memory policy (lib/caches.ts): byte bounds, the entry fraction, one budget shared by every cache. */
import {
  byteCache,
  CACHE_BUDGET_MB,
  CACHE_SHARES,
  cacheBytes,
  dataBytes,
  MAX_ENTRY_FRACTION,
  hasObjectKey,
  objectKey,
  setCachePolicy,
  textBytes,
} from "../../lib/caches";
import { checkedBase } from "../../lib/config/base";
import { bundledBaseConfig } from "../../lib/distributions/bundled";
import type { KubeObject } from "../../lib/wire/metacontroller";
import { overrideText } from "../reliability/hostile-requests";
import { aSecret, stamped } from "../sync-builders";

afterEach(() => setCachePolicy(CACHE_BUDGET_MB * 2 ** 20));

describe("sizes are computed from what an entry holds", () => {
  it.each<[string, unknown, number]>([
    ["a string: two bytes a character, and its header", "abcd", 16 + 8],
    ["a number", 7, 8],
    ["a list: a slot per item, and the items", ["ab", 1], 32 + 16 + (16 + 4) + 8],
    ["a map: a slot and the key per entry, and the values", { k: "v" }, 32 + 16 + (16 + 2) + (16 + 2)],
    ["a Buffer: its length", Buffer.alloc(1000), 96 + 1000],
  ])("%s", (_title, value, bytes) => {
    expect(dataBytes(value)).toBe(bytes);
  });

  it("counts a 1 MiB string at 2 MiB", () => {
    expect(textBytes("x".repeat(2 ** 20))).toBe(2 ** 21 + 16);
  });
});

describe("byteCache()", () => {
  const strings = (bytes: number) => byteCache<string, string>(bytes, { sizeOf: (v) => textBytes(v) })!;

  it("holds at most its bytes, dropping the least recently used", () => {
    const cache = strings(32 * textBytes("0123456789"));
    for (let i = 0; i < 40; i++) cache.set(`k${i}`, String(i).padStart(10, "0"));
    expect([cache.size, cache.calculatedSize]).toEqual([32, 32 * textBytes("0123456789")]);
    expect([cache.has("k7"), cache.has("k8"), cache.has("k39")]).toEqual([false, true, true]);
  });

  it(`keeps no value above 1/${1 / MAX_ENTRY_FRACTION} of its bytes`, () => {
    const cache = strings(32 * 1024);
    cache.set("small", "x".repeat(500));
    cache.set("large", "x".repeat(600));
    expect([cache.has("small"), cache.has("large")]).toEqual([true, false]);
  });

  it("is absent at 0 bytes: the caller computes every time", () => {
    expect(strings(0)).toBeUndefined();
  });
});

describe("one budget", () => {
  it("gives every cache a share, together the whole budget", () => {
    const shares = Object.values(CACHE_SHARES);
    expect(shares.reduce((a, b) => a + b, 0)).toBeCloseTo(1);
    expect(cacheBytes("sync memo")).toBe(Math.floor(CACHE_BUDGET_MB * 2 ** 20 * CACHE_SHARES["sync memo"]));
  });

  it("LLSD_CACHE_MB=0 (a budget of 0) turns every cache off; a cache can be turned off alone", () => {
    setCachePolicy(0);
    expect(Object.keys(CACHE_SHARES).map((name) => cacheBytes(name as keyof typeof CACHE_SHARES))).toEqual(
      Object.keys(CACHE_SHARES).map(() => 0),
    );
    setCachePolicy(2 ** 20, ["base configs"]);
    expect([cacheBytes("base configs"), cacheBytes("sync memo")]).toEqual([
      0,
      Math.floor(2 ** 20 * CACHE_SHARES["sync memo"]),
    ]);
  });
});

describe("the base-config cache", () => {
  const base = bundledBaseConfig("starter", "1.3")!;

  it("keeps a distribution's config (shared and frozen), and checks a huge overrideConfig every time", () => {
    expect(checkedBase(base)).toBe(checkedBase(base));
    expect(Object.isFrozen(checkedBase(base))).toBe(true);
    const huge = overrideText(1);
    expect(checkedBase(huge).ok).toBe(true);
    expect(checkedBase(huge)).not.toBe(checkedBase(huge));
    expect(Object.isFrozen(checkedBase(huge))).toBe(false);
  });

  it("keeps nothing with its share off", () => {
    setCachePolicy(CACHE_BUDGET_MB * 2 ** 20, ["base configs"]);
    expect(checkedBase(base)).not.toBe(checkedBase(base));
    expect(checkedBase(base)).toEqual(checkedBase(base));
  });
});

describe("objectKey(): the one key of an object", () => {
  const SECRET = "s3cret-canary-71fa";
  const secret = stamped(aSecret("creds", { token: SECRET }));
  const moved = (metadata: object): KubeObject => ({ ...secret, metadata: { ...secret.metadata, ...metadata } });

  it.each<[string, KubeObject]>([
    ["another namespace", moved({ namespace: "team-b" })],
    ["another name", moved({ name: "copy" })],
    ["another apiVersion", { ...secret, apiVersion: "v2" }],
    ["another resourceVersion", moved({ resourceVersion: "8" })],
  ])("tells apart the same uid under %s", (_, other) => {
    expect(objectKey(other)).not.toBe(objectKey(secret));
  });

  it("with content, tells apart an edit under the same resourceVersion; without, does not", () => {
    const edited = { ...aSecret("creds", { token: "rotated" }), metadata: secret.metadata };
    expect(objectKey(edited)).toBe(objectKey(secret));
    expect(objectKey(edited, true)).not.toBe(objectKey(secret, true));
    expect(objectKey(secret, true)).toBe(objectKey(structuredClone(secret), true));
  });

  it("holds no Secret value, as sent or decoded", () => {
    const key = objectKey(secret, true)!;
    for (const form of [SECRET, Buffer.from(SECRET).toString("base64")]) expect(key).not.toContain(form);
  });

  it.each(["uid", "resourceVersion"])("is undefined without %s (not from the apiserver)", (stamp) => {
    expect(objectKey(moved({ [stamp]: undefined }), true)).toBeUndefined();
  });

  it.each<[string, KubeObject]>([
    ["stamped", secret],
    ["without uid", moved({ uid: undefined })],
    ["with an empty uid", moved({ uid: "" })],
    ["without resourceVersion", moved({ resourceVersion: undefined })],
    ["with an empty resourceVersion", moved({ resourceVersion: "" })],
    ["with a numeric resourceVersion", moved({ resourceVersion: 7 })],
  ])("hasObjectKey says whether it has one, %s", (_, object) => {
    expect(hasObjectKey(object)).toBe(objectKey(object) !== undefined);
  });
});
