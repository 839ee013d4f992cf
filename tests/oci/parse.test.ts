/** Pure helpers of lib/oci: references and host policy, challenges, dockerconfigjson, manifests, retry timing. */
import fc from "fast-check";
import { credentialLookup, parseChallenge, parseDockerConfigJson } from "../../lib/oci/auth";
import { parseManifest, selectPlatform } from "../../lib/oci/manifest";
import { isForbiddenHost, registryBaseUrl, toRegistryRef, type RegistryRef } from "../../lib/oci/reference";
import { decideRetry, parseRetryAfter } from "../../lib/oci/retry";
import { MEDIA, type ImageIndex } from "../../lib/oci/types";

const D = (c: string): string => `sha256:${c.repeat(64)}`;

describe("toRegistryRef()", () => {
  test.each([
    [
      "busybox",
      { registry: "registry-1.docker.io", host: "docker.io", repository: "library/busybox", reference: "latest" },
    ],
    [
      "docker.io/llamastack/distribution-starter:0.7.1",
      {
        registry: "registry-1.docker.io",
        host: "docker.io",
        repository: "llamastack/distribution-starter",
        reference: "0.7.1",
      },
    ],
    [
      "quay.io/acme/starter:1.0",
      { registry: "quay.io", host: "quay.io", repository: "acme/starter", reference: "1.0" },
    ],
    [
      `localhost:5000/x/y:1@${D("a")}`,
      { registry: "localhost:5000", host: "localhost:5000", repository: "x/y", reference: D("a"), digest: D("a") },
    ],
  ])("%s", (image, expected) => {
    expect(toRegistryRef(image)).toEqual({ ok: true, value: expected });
  });

  test.each(["UPPER/case:1", "quay.io/a:b:c", `quay.io/a@sha512:${"a".repeat(128)}`])(
    "%s is refused as InvalidImageReference",
    (image) => {
      expect(toRegistryRef(image)).toMatchObject({
        ok: false,
        error: { reason: "InvalidImageReference", transient: false },
      });
    },
  );
});

describe("host policy", () => {
  const ref = (image: string): RegistryRef => {
    const r = toRegistryRef(image);
    if (!r.ok) throw new Error(r.error.message);
    return r.value;
  };

  test("https unless listed insecure (host:port, matched exactly)", () => {
    expect(registryBaseUrl(ref("127.0.0.1:5000/a:1"), {})).toEqual({ ok: true, value: "https://127.0.0.1:5000" });
    expect(registryBaseUrl(ref("127.0.0.1:5000/a:1"), { insecureRegistries: ["127.0.0.1:5000"] })).toEqual({
      ok: true,
      value: "http://127.0.0.1:5000",
    });
    expect(registryBaseUrl(ref("127.0.0.1:5001/a:1"), { insecureRegistries: ["127.0.0.1:5000"] })).toEqual({
      ok: true,
      value: "https://127.0.0.1:5001",
    });
  });

  test("an allow-list, with *.suffix entries; Docker Hub is docker.io", () => {
    const policy = { allowedRegistries: ["*.example.com", "docker.io"] };
    expect(registryBaseUrl(ref("reg.example.com/a:1"), policy).ok).toBe(true);
    expect(registryBaseUrl(ref("busybox:1"), policy)).toEqual({ ok: true, value: "https://registry-1.docker.io" });
    expect(registryBaseUrl(ref("quay.io/a:1"), policy)).toMatchObject({
      ok: false,
      error: { reason: "RegistryNotAllowed" },
    });
  });

  test.each([
    ["169.254.169.254", true],
    ["169.254.169.254:80", true],
    ["metadata.google.internal", true],
    ["[fe80::1]:5000", true],
    ["fd00:ec2::254", true],
    ["127.0.0.1:5000", false],
    ["10.0.0.1", false],
    ["quay.io", false],
  ])("isForbiddenHost(%s) = %s", (host, forbidden) => {
    expect(isForbiddenHost(host)).toBe(forbidden);
  });
});

describe("parseChallenge()", () => {
  test("Bearer with realm, service and scope (quoted, escapes)", () => {
    expect(
      parseChallenge(
        'Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:a/b:pull"',
      ),
    ).toEqual({
      scheme: "bearer",
      realm: "https://auth.docker.io/token",
      service: "registry.docker.io",
      scope: "repository:a/b:pull",
    });
    expect(parseChallenge('bearer realm="https://x/t\\"q"')).toEqual({ scheme: "bearer", realm: 'https://x/t"q' });
  });

  test.each([
    ['Basic realm="basic-realm"', { scheme: "basic" }],
    ["Bearer service=x", undefined],
    ["Digest realm=x", undefined],
    [null, undefined],
  ])("%s", (header, expected) => expect(parseChallenge(header)).toEqual(expected));

  test("never throws", () => fc.assert(fc.property(fc.string(), (s) => void parseChallenge(s))));
});

describe("parseDockerConfigJson()", () => {
  test("hosts normalised; username/password or auth; entries without credentials skipped", () => {
    const parsed = parseDockerConfigJson(
      JSON.stringify({
        auths: {
          "https://index.docker.io/v1/": { auth: "dXNlcjpwYXNz" },
          "Quay.io": { username: "u", password: "p", auth: "ignored" },
          "ghcr.io": { identitytoken: "t" },
        },
      }),
    );
    expect(parsed.ok && [...parsed.value]).toEqual([
      ["docker.io", { auth: "dXNlcjpwYXNz" }],
      ["quay.io", { username: "u", password: "p" }],
    ]);
  });

  test("the first lookup that knows a host wins", () => {
    const lookup = credentialLookup(
      new Map([["quay.io", { auth: "first" }]]),
      new Map([
        ["quay.io", { auth: "second" }],
        ["docker.io", { auth: "hub" }],
      ]),
    );
    expect([lookup("quay.io"), lookup("https://index.docker.io/v1/"), lookup("ghcr.io")]).toEqual([
      { auth: "first" },
      { auth: "hub" },
      undefined,
    ]);
  });

  test("bad documents are error values that never quote the Secret", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const input = `{"secret-${text}": `;
        const parsed = parseDockerConfigJson(input);
        return !parsed.ok && !parsed.error.message.includes("secret-");
      }),
    );
    expect(parseDockerConfigJson('{"credsStore": "desktop"}')).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('no "auths"') },
    });
  });
});

describe("manifests", () => {
  const index = (entries: object[]): ImageIndex => {
    const parsed = parseManifest(Buffer.from(JSON.stringify({ schemaVersion: 2, manifests: entries })), null);
    if (!parsed.ok || parsed.value.kind !== "index") throw new Error("not an index");
    return parsed.value;
  };
  const entry = (c: string, platform: object) => ({ mediaType: MEDIA.ociManifest, digest: D(c), size: 1, platform });

  test("an index is recognised without mediaType; schema 1 is refused", () => {
    expect(index([]).kind).toBe("index");
    expect(parseManifest(Buffer.from('{"schemaVersion":1}'), MEDIA.dockerManifest)).toMatchObject({
      ok: false,
      error: { reason: "InvalidImage" },
    });
    expect(parseManifest(Buffer.from("nope"), null)).toMatchObject({
      ok: false,
      error: { message: "the manifest is not valid JSON" },
    });
  });

  test("platform selection: attestations skipped, variant honoured when asked", () => {
    const idx = index([
      entry("a", { os: "unknown", architecture: "unknown" }),
      entry("b", { os: "linux", architecture: "arm64", variant: "v8" }),
      entry("c", { os: "linux", architecture: "amd64" }),
    ]);
    expect(selectPlatform(idx)).toMatchObject({ ok: true, value: { digest: D("c") } });
    expect(selectPlatform(idx, { os: "linux", architecture: "arm64" })).toMatchObject({
      ok: true,
      value: { digest: D("b") },
    });
    expect(selectPlatform(idx, { os: "linux", architecture: "arm64", variant: "v7" })).toMatchObject({
      ok: false,
      error: { reason: "PlatformNotFound" },
    });
  });
});

describe("retry timing", () => {
  test("Retry-After: seconds or an HTTP date, relative to the injected clock", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("3", now)).toBe(3000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:02 GMT", now)).toBe(2000);
    expect(parseRetryAfter("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
    expect([parseRetryAfter("soon", now), parseRetryAfter(null, now)]).toEqual([undefined, undefined]);
  });

  test("retries back off, stop when spent, and never wait past the cap or the deadline", () => {
    const base = { maxRetries: 2, retryAfterMs: undefined, baseMs: 100, maxDelayMs: 2000, remainingMs: 4000 };
    expect([0, 1, 2].map((attempt) => decideRetry({ ...base, attempt }))).toEqual([
      { retry: true, delayMs: 100 },
      { retry: true, delayMs: 200 },
      { retry: false, delayMs: 400 },
    ]);
    expect(decideRetry({ ...base, attempt: 0, retryAfterMs: 5000 })).toMatchObject({
      retry: false,
      why: "it asked to retry after 5 s",
    });
    expect(decideRetry({ ...base, attempt: 0, retryAfterMs: 1500, remainingMs: 1000 })).toMatchObject({ retry: false });
  });
});
