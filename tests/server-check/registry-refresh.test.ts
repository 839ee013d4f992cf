/**
 * `spec.registryRefreshIntervalSeconds` → `server.registry_refresh_interval_seconds`, on the lines
 * whose ServerConfig has the key (0.8 and 1.x): the server of each such line accepts the config,
 * with zero keys it would ignore. On 0.7 the key does not exist (the schema oracle flags it), so
 * the field is refused with its path. Unset, the config has no such key.
 */
import { parse } from "yaml";
import { validate } from "../../lib/api/validate";
import { REFRESH_KEY, takesRegistryRefresh } from "../../lib/api/registry-refresh";
import { schemaTagOf } from "../../lib/distributions/releases";
import { RELEASES, type Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import type { SyncResponse } from "../../lib/wire/metacontroller";
import { aParent, aRequest, deps } from "../sync-builders";
import { checkServerConfigs, type ServerCheck } from "./check";
import { serverCheckOf, tableFor } from "./from-sync";

const PATH = "spec.registryRefreshIntervalSeconds";
const spec = (extra: object = {}) => ({ distribution: { name: "starter" }, ...extra });
const providers = { providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000/v1" } } };

function synced(release: Release, s: object): { answer: SyncResponse; check: ServerCheck | undefined } {
  const request = aRequest(aParent(s), [], []);
  const answer = sync(request, { ...deps(), distributions: tableFor(release) });
  return { answer, check: serverCheckOf(answer, request.related, release) };
}

const serverSection = (check: ServerCheck | undefined): { [key: string]: unknown } =>
  (parse(check?.configYaml ?? "{}") as { server?: { [key: string]: unknown } }).server ?? {};

const LINES_WITH = RELEASES.filter(takesRegistryRefresh);
const LINES_WITHOUT = RELEASES.filter((r) => !takesRegistryRefresh(r));

describe("the lines that have the key", () => {
  it("are 0.8, 1.2 and 1.3 (0.7's ServerConfig has none)", () => {
    expect([LINES_WITH, LINES_WITHOUT]).toEqual([["0.8", "1.2", "1.3"], ["0.7"]]);
  });
});

describe.each(LINES_WITH)("registryRefreshIntervalSeconds on the %s line", (release) => {
  it.each([
    ["alone (it generates a config by itself)", spec({ registryRefreshIntervalSeconds: 60 }), 60],
    ["beside providers", spec({ ...providers, registryRefreshIntervalSeconds: 1 }), 1],
    ["at its maximum", spec({ ...providers, registryRefreshIntervalSeconds: 2147483647 }), 2147483647],
  ])(`%s: becomes server.${REFRESH_KEY} and the server accepts the config`, (_title, s, seconds) => {
    const { answer, check } = synced(release, s);
    expect(answer.status.phase).not.toBe("Failed");
    expect(serverSection(check)[REFRESH_KEY]).toBe(seconds);
    expect(checkServerConfigs([check!])).toEqual([[]]);
  });

  it("unset, the config has no such key", () => {
    const { check } = synced(release, spec(providers));
    expect(check).toBeDefined();
    expect(Object.keys(serverSection(check))).not.toContain(REFRESH_KEY);
  });

  it("validate() for this line accepts it", () => {
    expect(validate(spec({ registryRefreshIntervalSeconds: 60 }), { release }).errors).toEqual([]);
  });
});

describe.each(LINES_WITHOUT)("registryRefreshIntervalSeconds on the %s line", (release) => {
  it("the line's server schema would flag the key (the oracle behind the refusal)", () => {
    const { check } = synced("0.8", spec({ ...providers, registryRefreshIntervalSeconds: 60 }));
    const problems = checkServerConfigs([{ ...check!, tag: schemaTagOf(release) }])[0];
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining(REFRESH_KEY)]));
  });

  it("is refused with the field path and the lines that have it, by /sync and by validate()", () => {
    const { answer } = synced(release, spec({ ...providers, registryRefreshIntervalSeconds: 60 }));
    expect(answer.status.phase).toBe("Failed");
    expect(answer.children).toEqual([]);
    const message = `${PATH}: the ${release} server line has no server.${REFRESH_KEY}`;
    expect(JSON.stringify(answer.status.conditions)).toContain(message);
    const errors = validate(spec({ registryRefreshIntervalSeconds: 60 }), { release }).errors;
    expect(errors).toEqual([{ path: PATH, message: expect.stringContaining("the 0.8, 1.2 and 1.3 lines have it") }]);
  });

  it("unset, nothing is refused", () => {
    expect(synced(release, spec(providers)).answer.status.phase).not.toBe("Failed");
  });
});

describe("with overrideConfig", () => {
  it("is refused: the ConfigMap is mounted as written, so the key belongs in it", () => {
    const errors = validate(
      spec({ overrideConfig: { configMapName: "cfg" }, registryRefreshIntervalSeconds: 60 }),
    ).errors;
    expect(errors).toEqual([{ path: PATH, message: expect.stringContaining(`set server.${REFRESH_KEY} in it`) }]);
  });
});
