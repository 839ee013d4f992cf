/**
 * The sync hook's settings from the environment (hooks/sync-settings.ts): each variable's name,
 * default and refusal, read at the edge and handed to lib/sync as a plain value.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { syncSettingsFromEnv } from "../../hooks/sync-settings";
import { packageVersion, type SyncSettings } from "../../lib/sync";

const DEFAULTS: SyncSettings = {
  hooksNamespace: "llsd-hooks",
  exposeWith: "ingress",
  operatorVersion: packageVersion()!,
  registry: { insecureRegistries: [], privateRegistries: [] },
  live: { timeoutMs: 1500, ttlMs: 300_000 },
  cacheBytes: 48 * 2 ** 20,
  serverMonitoring: { serviceMonitors: false, scraperNamespace: "monitoring" },
};

describe("syncSettingsFromEnv", () => {
  it("with nothing set, is the defaults", () => {
    expect(syncSettingsFromEnv({})).toEqual(DEFAULTS);
  });

  it.each<[string, NodeJS.ProcessEnv, Partial<SyncSettings>]>([
    ["HOOKS_NAMESPACE", { HOOKS_NAMESPACE: "ops" }, { hooksNamespace: "ops" }],
    ["LLSD_EXPOSE_WITH=route", { LLSD_EXPOSE_WITH: "route" }, { exposeWith: "route" }],
    ["LLSD_EXPOSE_WITH=ingress", { LLSD_EXPOSE_WITH: "ingress" }, { exposeWith: "ingress" }],
    [
      "LLSD_GATEWAY_PARENT, a Gateway",
      { LLSD_EXPOSE_WITH: "gateway", LLSD_GATEWAY_PARENT: " gateways/public " },
      { exposeWith: "gateway", gatewayParent: { namespace: "gateways", name: "public" } },
    ],
    [
      "LLSD_GATEWAY_PARENT, a listener of it",
      { LLSD_EXPOSE_WITH: "gateway", LLSD_GATEWAY_PARENT: "gateways/public.edge/https-443" },
      {
        exposeWith: "gateway",
        gatewayParent: { namespace: "gateways", name: "public.edge", sectionName: "https-443" },
      },
    ],
    [
      "LLSD_GATEWAY_PARENT blank: unset",
      { LLSD_EXPOSE_WITH: "gateway", LLSD_GATEWAY_PARENT: "" },
      { exposeWith: "gateway" },
    ],
    [
      "LLSD_SERVICE_MONITORS and LLSD_SCRAPER_NAMESPACE (the server-monitoring component)",
      { LLSD_SERVICE_MONITORS: "true", LLSD_SCRAPER_NAMESPACE: "prometheus" },
      { serverMonitoring: { serviceMonitors: true, scraperNamespace: "prometheus" } },
    ],
    ["LLSD_READ_IMAGE_LABELS=true", { LLSD_READ_IMAGE_LABELS: "true" }, {}],
    [
      "LLSD_LIVE_STATUS=true, blank values as unset",
      { LLSD_LIVE_STATUS: " true ", HOOKS_NAMESPACE: "", LLSD_LIVE_TIMEOUT_MS: " " },
      {},
    ],
    ["OPERATOR_VERSION", { OPERATOR_VERSION: "v1.2.3" }, { operatorVersion: "v1.2.3" }],
    [
      "the registry lists",
      {
        ALLOWED_REGISTRIES: " quay.io, *.corp.example ,",
        INSECURE_REGISTRIES: "mirror:5000",
        PRIVATE_REGISTRIES: "registry.local",
      },
      {
        registry: {
          allowedRegistries: ["quay.io", "*.corp.example"],
          insecureRegistries: ["mirror:5000"],
          privateRegistries: ["registry.local"],
        },
      },
    ],
    [
      "LLSD_LIVE_TIMEOUT_MS and LLSD_LIVE_TTL_SECONDS",
      { LLSD_LIVE_TIMEOUT_MS: "250", LLSD_LIVE_TTL_SECONDS: "60" },
      { live: { timeoutMs: 250, ttlMs: 60_000 } },
    ],
    [
      "LLSD_LIVE_BASE_URL",
      { LLSD_LIVE_BASE_URL: "http://127.0.0.1:8321" },
      { live: { timeoutMs: 1500, ttlMs: 300_000, baseUrl: "http://127.0.0.1:8321" } },
    ],
    [
      "DISTRIBUTION_IMAGES_FILE",
      { DISTRIBUTION_IMAGES_FILE: "/etc/llsd/images.yaml" },
      { imageOverridesFile: "/etc/llsd/images.yaml" },
    ],
    ["LLSD_CACHE_MB", { LLSD_CACHE_MB: "0.5" }, { cacheBytes: 2 ** 19 }],
    ["LLSD_CACHE_MB=0", { LLSD_CACHE_MB: "0" }, { cacheBytes: 0 }],
  ])("reads %s", (_name, env, changed) => {
    expect(syncSettingsFromEnv(env)).toEqual({ ...DEFAULTS, ...changed });
  });

  it.each([
    ["LLSD_READ_IMAGE_LABELS=false", { LLSD_READ_IMAGE_LABELS: "false" }, "registry"],
    ["LLSD_LIVE_STATUS=false", { LLSD_LIVE_STATUS: "false" }, "live"],
  ] as const)("%s turns the %s off", (_name, env, key) => {
    const settings = syncSettingsFromEnv(env);
    expect(settings).not.toHaveProperty(key);
    expect(settings).toEqual(Object.fromEntries(Object.entries(DEFAULTS).filter(([k]) => k !== key)));
  });

  it.each([
    [{ LLSD_LIVE_TIMEOUT_MS: "soon" }, 'LLSD_LIVE_TIMEOUT_MS must be a positive number, got "soon"'],
    [{ LLSD_LIVE_TTL_SECONDS: "-5" }, 'LLSD_LIVE_TTL_SECONDS must be a positive number, got "-5"'],
    [{ LLSD_CACHE_MB: "lots" }, 'LLSD_CACHE_MB must be a number of MiB (0 turns every cache off), got "lots"'],
    [
      { SYNC_MEMO_MB: "16" },
      "SYNC_MEMO_MB is no longer read: every cache, the sync memo included, shares one budget; set LLSD_CACHE_MB instead",
    ],
    [{ REGISTRY_AUTH_FILE: "/no/such/auth.json" }, /ENOENT.*\/no\/such\/auth.json/],
    ...["public", "gateways/", "/public", "Gateways/public", "gateways/public/https/x", "gateways/public/HTTPS"].map(
      (value): [NodeJS.ProcessEnv, string] => [
        { LLSD_EXPOSE_WITH: "gateway", LLSD_GATEWAY_PARENT: value },
        `LLSD_GATEWAY_PARENT must be namespace/name[/sectionName] (e.g. gateways/public/https), got ${JSON.stringify(value)}`,
      ],
    ),
    [
      { LLSD_GATEWAY_PARENT: "gateways/public" },
      "LLSD_GATEWAY_PARENT names a Gateway, which only LLSD_EXPOSE_WITH=gateway uses; unset it, or set LLSD_EXPOSE_WITH=gateway",
    ],
    [{ LLSD_EXPOSE_WITH: "route", LLSD_GATEWAY_PARENT: "gateways/public" }, /only LLSD_EXPOSE_WITH=gateway uses/],
  ] as [NodeJS.ProcessEnv, string | RegExp][])("refuses %j, naming the variable", (env, message) => {
    expect(() => syncSettingsFromEnv(env)).toThrow(message);
  });

  describe("REGISTRY_AUTH_FILE", () => {
    let dir: string;
    beforeAll(() => (dir = mkdtempSync(join(tmpdir(), "registry-auth-"))));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("gives the registry settings a credential lookup for the file's registries", () => {
      const file = join(dir, "config.json");
      writeFileSync(
        file,
        JSON.stringify({ auths: { "quay.io": { auth: Buffer.from("robot:s3cret").toString("base64") } } }),
      );
      const lookup = syncSettingsFromEnv({ REGISTRY_AUTH_FILE: file }).registry?.credentials;
      expect(lookup).toBeDefined();
      expect(lookup!("quay.io")).toEqual({ auth: Buffer.from("robot:s3cret").toString("base64") });
      expect(lookup!("docker.io")).toBeUndefined();
    });

    it("refuses a file that is not a dockerconfigjson, naming the variable and never its content", () => {
      const file = join(dir, "bad.json");
      writeFileSync(file, "{ s3cret");
      expect(() => syncSettingsFromEnv({ REGISTRY_AUTH_FILE: file })).toThrow(
        new RegExp(`^REGISTRY_AUTH_FILE ${file}: \\w`),
      );
      expect(() => syncSettingsFromEnv({ REGISTRY_AUTH_FILE: file })).not.toThrow(/\[object Object\]/);
      expect(() => syncSettingsFromEnv({ REGISTRY_AUTH_FILE: file })).not.toThrow(/s3cret/);
    });
  });
});
