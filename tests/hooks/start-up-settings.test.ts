/**
 * Every start-up setting the service reads, checked the same way (hooks/env-values.ts): read
 * as main.ts reads them, a good value is taken, a blank one means the default, and a bad one is
 * refused with one message shape — the variable, the value, what is allowed. The process test
 * that main.ts turns such a refusal into a "Bad configuration" exit is in shutdown.test.ts.
 */
import { logLevelFromEnv } from "../../hooks/logger";
import { serviceConfigFromEnv } from "../../hooks/service";
import { syncSettingsFromEnv } from "../../hooks/sync-settings";

/** What main.ts reads before it listens (the bearer token and TLS pair have their own tests). */
const startUp = (env: NodeJS.ProcessEnv) => ({
  level: logLevelFromEnv(env),
  service: serviceConfigFromEnv(env),
  sync: syncSettingsFromEnv(env),
});

const BOOLEAN = "true or false";
const REGISTRIES = "a comma-separated list of host[:port] or *.suffix entries";

/** Variable, values it takes, values it refuses, what the refusal says is allowed. */
const VARIABLES: [string, string[], string[], string][] = [
  ["LLSD_READ_IMAGE_LABELS", ["true", "false"], ["maybe", "False", "1", "0", "yes", "no", "off"], BOOLEAN],
  ["LLSD_LIVE_STATUS", ["true", "false"], ["maybe", "TRUE", "1", "no"], BOOLEAN],
  [
    "LLSD_EXPOSE_WITH",
    ["ingress", "route", "gateway"],
    ["Gateway", "Route", "routes", "none"],
    "one of ingress, route, gateway",
  ],
  [
    "LOG_LEVEL",
    ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    ["verbose", "INFO", "10"],
    "one of fatal, error, warn, info, debug, trace, silent",
  ],
  [
    "HOST",
    ["127.0.0.1", "::1", "0.0.0.0", "::", "localhost", "hooks.example"],
    ["127.0.0.1:8080", "http://localhost", "[::1]", "my host", "Local_Host"],
    "an IP address (127.0.0.1, ::1, 0.0.0.0, ::) or a host name",
  ],
  ["PORT", ["0", "8080", "65535"], ["65536", "-1", "80.5", "0x50", "http", "1e3"], "an integer from 0 to 65535"],
  ["TLS_PORT", ["8443"], ["99999", "8443x"], "an integer from 0 to 65535"],
  ["SYNC_TLS_PORT", ["8444", "0"], ["65536", "https", "8444.0"], "an integer from 0 to 65535"],
  ["SYNC_PLAIN_HTTP", ["true", "false"], ["no", "False", "0"], BOOLEAN],
  ["MAX_CONCURRENT_HOOKS", ["1", "64"], ["0", "-3", "2.5", "lots", "Infinity"], "a positive integer"],
  ["HOOK_TIMEOUT_MS", ["9000"], ["0", "9s", "1e4"], "a positive integer"],
  ["SHUTDOWN_DRAIN_DELAY_MS", ["0", "5000"], ["-1", "5s", "2.5"], "a whole number of milliseconds"],
  ["LLSD_LIVE_TIMEOUT_MS", ["250", "1.5"], ["0", "-5", "soon", "NaN", "0x10"], "a positive number"],
  ["LLSD_LIVE_TTL_SECONDS", ["60"], ["0", "5m"], "a positive number"],
  [
    "LLSD_CACHE_MB",
    ["0", "0.5", "48"],
    ["-1", "lots", "16MB", "Infinity"],
    "a number of MiB (0 turns every cache off)",
  ],
  [
    "HOOKS_NAMESPACE",
    ["ops", "llsd-hooks"],
    ["Ops", "my_ns", "-x", "a".repeat(64)],
    "a namespace name (lowercase letters, digits and '-', at most 63)",
  ],
  ["LLSD_SERVICE_MONITORS", ["true", "false"], ["yes", "1", "True"], BOOLEAN],
  [
    "LLSD_SCRAPER_NAMESPACE",
    ["monitoring", "openshift-user-workload-monitoring"],
    ["Monitoring", "prom_ns", "a".repeat(64)],
    "a namespace name (lowercase letters, digits and '-', at most 63)",
  ],
  [
    "LLSD_LIVE_BASE_URL",
    ["http://127.0.0.1:8321", "https://llsd.example"],
    ["127.0.0.1:8321x", "ftp://host", "not a url"],
    "an http:// or https:// URL",
  ],
  [
    "ALLOWED_REGISTRIES",
    ["quay.io", "quay.io, *.corp.example", "https://registry.local:5000/v2", "[::1]:5000"],
    ["quay.io;docker.io", "bad host", "*", "quay.io:port"],
    REGISTRIES,
  ],
  ["INSECURE_REGISTRIES", ["mirror:5000"], ["mirror:5000 mirror2"], REGISTRIES],
  ["PRIVATE_REGISTRIES", ["registry.local,*.svc"], ["registry local"], REGISTRIES],
];

describe.each(VARIABLES)("%s", (variable, good, bad, allowed) => {
  it.each(good)("takes %j", (value) => {
    expect(() => startUp({ [variable]: value })).not.toThrow();
  });

  it.each(bad)("refuses %j, naming the variable, the value and what is allowed", (value) => {
    expect(() => startUp({ [variable]: value })).toThrow(
      `${variable} must be ${allowed}, got ${JSON.stringify(value)}`,
    );
  });

  it("means the default when blank", () => {
    expect(startUp({ [variable]: "  " })).toEqual(startUp({}));
  });

  it("is refused even when the feature it belongs to is off", () => {
    expect(() => startUp({ LLSD_READ_IMAGE_LABELS: "false", LLSD_LIVE_STATUS: "false", [variable]: bad[0]! })).toThrow(
      variable,
    );
  });
});

describe("what a refusal shows", () => {
  it("quotes control characters and cuts a long value", () => {
    expect(() => startUp({ LLSD_EXPOSE_WITH: "route\n" + "x".repeat(500) })).toThrow(/got "route\\nx{74}…"$/);
  });

  it("never a password in a URL", () => {
    expect(() => startUp({ LLSD_LIVE_BASE_URL: "ftp://admin:s3cret@host" })).toThrow('got "ftp://***@host"');
    expect(() => startUp({ LLSD_LIVE_BASE_URL: "ftp://admin:s3cret@host" })).not.toThrow(/s3cret/);
  });

  it("takes the values read as they are meant", () => {
    expect(startUp({ LLSD_READ_IMAGE_LABELS: "false" }).sync.registry).toBeUndefined();
    expect(startUp({ LLSD_READ_IMAGE_LABELS: "true" }).sync.registry).toBeDefined();
    expect(startUp({ PORT: "9090", SHUTDOWN_DRAIN_DELAY_MS: "0" }).service).toMatchObject({
      port: 9090,
      drainDelayMs: 0,
    });
    expect(startUp({ LOG_LEVEL: "debug" }).level).toBe("debug");
  });
});

describe("TLS_CLIENT_CA_FILE", () => {
  const pair = { TLS_CERT_FILE: "/etc/tls/tls.crt", TLS_KEY_FILE: "/etc/tls/tls.key" };

  it("names the CA a client certificate on SYNC_TLS_PORT must chain to", () => {
    expect(startUp({ ...pair, TLS_CLIENT_CA_FILE: " /etc/tls/ca.crt " }).service.syncClientCaFile).toBe(
      "/etc/tls/ca.crt",
    );
  });

  it("means no client certificate when blank", () => {
    expect(startUp({ ...pair, TLS_CLIENT_CA_FILE: " " })).toEqual(startUp(pair));
  });

  it("is refused without a serving certificate: there is no HTTPS listener to ask for one", () => {
    expect(() => startUp({ TLS_CLIENT_CA_FILE: "/etc/tls/ca.crt" })).toThrow(
      'TLS_CLIENT_CA_FILE must be unset unless TLS_CERT_FILE and TLS_KEY_FILE are set, got "/etc/tls/ca.crt"',
    );
  });
});
