/**
 * The SSRF guard (lib/oci/reference.ts, lib/oci/ssrf.ts): registry hosts that are, or resolve
 * to, link-local or metadata addresses are never contacted; loopback and private ones only
 * when the operator listed the registry; every address of a DNS answer counts; numeric and
 * IPv6 spellings of an address are recognised. Through the sync path: a refused registry is a
 * Failed status that keeps the running children, and no connection is made.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createBaseConfigResolver } from "../../lib/oci";
import {
  classifyAddress,
  hostnameOf,
  isForbiddenHost,
  registryBaseUrl,
  toRegistryRef,
  type RegistryRef,
} from "../../lib/oci/reference";
import { createRegistryGuard, type LookupAll } from "../../lib/oci/ssrf";
import { guardResolver } from "../../lib/oci/guard-resolver";
import { registryResolver, syncWith } from "../../lib/sync";
import { registrySettingsFromEnv } from "../../hooks/sync-settings";
import type { SyncResponse } from "../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps, observedFrom } from "../sync-builders";

const ref = (image: string): RegistryRef => {
  const r = toRegistryRef(image);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

/** A DNS that answers from a table; unknown names fail like node:dns. */
function fakeDns(table: Record<string, string[]>): LookupAll & { calls: string[] } {
  const calls: string[] = [];
  const lookup = (hostname: string) => {
    calls.push(hostname);
    const answer = table[hostname];
    if (answer === undefined)
      return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }));
    return Promise.resolve(answer.map((address) => ({ address })));
  };
  return Object.assign(lookup, { calls });
}

describe("classifyAddress", () => {
  test.each([
    ["169.254.169.254", "metadata"],
    ["169.254.170.2", "metadata"],
    ["100.100.100.200", "metadata"],
    ["fd00:ec2::254", "metadata"],
    ["169.254.1.1", "link-local"],
    ["fe80::1", "link-local"],
    ["febf::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["100.64.0.1", "private"],
    ["fd12:3456::1", "private"],
    ["fc00::1", "private"],
    ["224.0.0.1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["ff02::1", "reserved"],
    ["2001:db8::1", "reserved"],
    ["::ffff:169.254.169.254", "metadata"],
    ["::ffff:a9fe:101", "link-local"],
    ["::ffff:10.0.0.1", "private"],
    ["::ffff:7f00:1", "loopback"],
    ["::10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "metadata"],
    ["2002:a9fe:a9fe::1", "metadata"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["2606:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
  ])("%s is %s", (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it("is undefined for names", () => {
    expect(classifyAddress("quay.io")).toBeUndefined();
  });
});

describe("literal hosts, however they are written", () => {
  test.each([
    ["2852039166:5000", "169.254.169.254"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["0251.0376.0251.0376:80", "169.254.169.254"],
    ["169.254.43518", "169.254.169.254"],
    ["[::ffff:169.254.169.254]:5000", "::ffff:a9fe:a9fe"],
    ["METADATA.google.internal.", "metadata.google.internal"],
  ])("%s is read as fetch reads it (%s) and refused", (host, name) => {
    expect(hostnameOf(host)).toBe(name);
    expect(isForbiddenHost(host)).toBe(true);
  });

  it("an image on a numeric spelling of the metadata address is refused before any request", async () => {
    for (const image of ["2852039166:5000/x:1", "0xa9fea9fe:80/x:1"]) {
      const result = await createBaseConfigResolver({}).resolve(image);
      expect(result).toMatchObject({ kind: "error", reason: "RegistryNotAllowed", transient: false });
    }
  });

  it("a registry fetch cannot use (a port out of range) is an invalid reference, not an exception", async () => {
    expect(registryBaseUrl(ref("host.example:99999/x:1"), {})).toMatchObject({
      ok: false,
      error: { reason: "InvalidImageReference" },
    });
    await expect(createBaseConfigResolver({}).resolve("host.example:99999/x:1")).resolves.toMatchObject({
      kind: "error",
      reason: "InvalidImageReference",
    });
  });
});

describe("createRegistryGuard", () => {
  const dns = () =>
    fakeDns({
      "evil.example": ["169.254.169.254"],
      "sneaky.example": ["8.8.8.8", "10.0.0.7"],
      "internal.corp": ["10.0.0.5"],
      "rebound.corp": ["fd00:ec2::254"],
      "quay.io": ["34.0.0.1", "2600:1f18::1"],
      localhost: ["127.0.0.1", "::1"],
    });

  it("refuses a name that resolves to a metadata address, even when listed", async () => {
    const guard = createRegistryGuard({
      lookup: dns(),
      insecureRegistries: ["evil.example:5000"],
      privateRegistries: ["evil.example:5000"],
    });
    const verdict = await guard.check(ref("evil.example:5000/x:1"));
    expect(verdict).toEqual({
      ok: false,
      error: {
        reason: "RegistryNotAllowed",
        transient: false,
        message:
          'registry "evil.example:5000" resolves to 169.254.169.254, a cloud metadata address, and is never contacted',
      },
    });
  });

  it("checks every address of the answer, not only the first", async () => {
    const verdict = await createRegistryGuard({ lookup: dns() }).check(ref("sneaky.example/x:1"));
    expect(verdict).toMatchObject({
      ok: false,
      error: {
        reason: "RegistryNotAllowed",
        message: expect.stringContaining("resolves to 10.0.0.7, a private address"),
      },
    });
  });

  it("refuses private and loopback registries unless listed in any of the three lists", async () => {
    const cases: [string, object, boolean][] = [
      ["internal.corp/x:1", {}, false],
      ["internal.corp/x:1", { privateRegistries: ["internal.corp"] }, true],
      ["internal.corp/x:1", { privateRegistries: ["*.corp"] }, true],
      ["internal.corp/x:1", { allowedRegistries: ["internal.corp"] }, true],
      ["internal.corp:5000/x:1", { insecureRegistries: ["internal.corp:5000"] }, true],
      ["internal.corp:5000/x:1", { insecureRegistries: ["internal.corp:5001"] }, false],
      ["localhost:5000/x:1", {}, false],
      ["localhost:5000/x:1", { insecureRegistries: ["localhost:5000"] }, true],
      ["127.0.0.1:5000/x:1", {}, false],
      ["127.0.0.1:5000/x:1", { insecureRegistries: ["127.0.0.1:5000"] }, true],
      ["10.9.8.7/x:1", { privateRegistries: ["10.9.8.7"] }, true],
      ["rebound.corp/x:1", { privateRegistries: ["rebound.corp"] }, false],
      ["quay.io/x:1", {}, true],
    ];
    for (const [image, policy, allowed] of cases) {
      const verdict = await createRegistryGuard({ lookup: dns(), ...policy }).check(ref(image));
      expect({ image, policy, allowed: verdict.ok }).toEqual({ image, policy, allowed });
    }
  });

  it("honours the allow-list before resolving anything", async () => {
    const lookup = dns();
    const verdict = await createRegistryGuard({ lookup, allowedRegistries: ["quay.io"] }).check(
      ref("internal.corp/x:1"),
    );
    expect(verdict).toMatchObject({
      ok: false,
      error: {
        reason: "RegistryNotAllowed",
        message: 'registry "internal.corp" is not in the allowed registries of this service',
      },
    });
    expect(lookup.calls).toEqual([]);
  });

  it("a name that does not resolve, or not in time, is a transient failure and nothing is contacted", async () => {
    expect(await createRegistryGuard({ lookup: dns() }).check(ref("nowhere.example/x:1"))).toEqual({
      ok: false,
      error: {
        reason: "RegistryUnavailable",
        transient: true,
        message: 'cannot resolve the registry host of "nowhere.example": ENOTFOUND',
      },
    });
    // A lookup that never answers: only the 100 ms timeout can end the check (ETIMEOUT).
    const hanging: LookupAll = () => new Promise(() => undefined);
    expect(
      await createRegistryGuard({ lookup: hanging, lookupTimeoutMs: 100 }).check(ref("slow.example/x:1")),
    ).toMatchObject({
      ok: false,
      error: { reason: "RegistryUnavailable", transient: true, message: expect.stringContaining("ETIMEOUT") },
    });
  });

  it("caches verdicts for their TTL and shares one lookup between concurrent checks", async () => {
    const lookup = dns();
    let now = 0;
    const guard = createRegistryGuard({ lookup, now: () => now, cacheTtlMs: 1000 });
    await Promise.all(Array.from({ length: 10 }, () => guard.check(ref("quay.io/a:1"))));
    await guard.check(ref("quay.io/b:2"));
    expect(lookup.calls).toEqual(["quay.io"]);
    now = 1001;
    await guard.check(ref("quay.io/a:1"));
    expect(lookup.calls).toEqual(["quay.io", "quay.io"]);
  });

  it("uses node:dns by default: localhost resolves to loopback and is refused unless listed", async () => {
    expect(await createRegistryGuard().check(ref("localhost:5000/x:1"))).toMatchObject({
      ok: false,
      error: {
        reason: "RegistryNotAllowed",
        message: expect.stringMatching(/resolves to (127\.0\.0\.1|::1), a loopback address/),
      },
    });
    expect(
      (await createRegistryGuard({ privateRegistries: ["localhost:5000"] }).check(ref("localhost:5000/x:1"))).ok,
    ).toBe(true);
  });
});

describe("through the sync path", () => {
  let server: Server;
  let port: number;
  let connections = 0;
  let requests = 0;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests++;
      res.writeHead(404).end();
    });
    server.on("connection", () => void connections++);
    // Both stacks: `localhost` may resolve to ::1 first.
    await new Promise<void>((resolve) => server.listen(0, "::", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const spec = (distribution: object) => ({
    distribution,
    providers: {
      inference: { provider: "vllm", endpoint: "http://vllm:8000", apiKey: { name: "creds", key: "token" } },
    },
  });
  const creds = aSecret("creds", { token: "t" });
  const condition = (r: SyncResponse) =>
    (r.status.conditions as { type: string; reason: string; message: string }[]).find(
      (c) => c.type === "ConfigGenerated",
    );

  it("an image on a name that resolves to an internal address: Failed, running children kept, no connection", async () => {
    const host = `registry.attacker.example:${port}`;
    const resolver = guardResolver(
      createBaseConfigResolver({}),
      createRegistryGuard({ lookup: fakeDns({ "registry.attacker.example": ["127.0.0.1"] }) }),
    );
    const good = await syncWith(aRequest(aParent(spec({ name: "starter" })), [], [creds]), deps(), undefined);
    const running = observedFrom(good.children);
    connections = 0;
    const r = await syncWith(
      aRequest(aParent(spec({ image: `${host}/x:1` }), { generation: 2 }), running, [creds]),
      deps(),
      resolver,
    );
    expect(r.status.phase).toBe("Failed");
    expect(condition(r)).toMatchObject({
      reason: "RegistryError",
      message: expect.stringContaining(`registry "${host}" resolves to 127.0.0.1, a loopback address`),
    });
    expect(r.children.map((c) => `${c.kind}/${c.metadata.name}`).sort()).toEqual(
      running.map((c) => `${c.kind}/${c.metadata.name}`).sort(),
    );
    expect(connections).toBe(0);
  });

  it("the same kind of registry, listed by the operator, is contacted", async () => {
    const host = `localhost:${port}`;
    const policy = { insecureRegistries: [host] };
    const resolver = guardResolver(
      createBaseConfigResolver({ ...policy, retryBaseMs: 1 }),
      createRegistryGuard(policy),
    );
    connections = 0;
    const r = await syncWith(aRequest(aParent(spec({ image: `${host}/x:1` })), [], [creds]), deps(), resolver);
    expect(r.status.phase).toBe("Failed"); // the test server has no such image
    expect(condition(r)?.message).toContain(`${host}/x has no manifest 1 (404)`);
    expect(connections).toBeGreaterThan(0);
  });

  it.each([
    ["no list names it", {}, false],
    ["INSECURE_REGISTRIES names it", { INSECURE_REGISTRIES: "HOST" }, true],
    [
      "PRIVATE_REGISTRIES names it (https only, so the plain-http test server is not understood)",
      { PRIVATE_REGISTRIES: "HOST" },
      true,
    ],
  ])(
    "the process's resolver (registryResolver of the environment's settings) guards a loopback registry when %s",
    async (_what, env: Record<string, string>, contacted) => {
      const host = `localhost:${port}`;
      const resolver = registryResolver(
        registrySettingsFromEnv(Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace("HOST", host)])))!,
      );
      requests = 0;
      connections = 0;
      const r = await syncWith(aRequest(aParent(spec({ image: `${host}/x:1` })), [], [creds]), deps(), resolver);
      expect(r.status.phase).toBe("Failed");
      if (!contacted) expect(condition(r)?.message).toContain(`registry "${host}" resolves to`);
      // Requests too, not only connections: fetch reuses a kept-alive plain-http socket.
      expect(requests + connections > 0).toBe(contacted);
    },
  );
});
