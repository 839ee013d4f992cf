/**
 * Where each server keeps its state, computed as the real server would: every sample (and the
 * same with a custom `workload.storage.mountPath`), synced for every line, gives a config.yaml
 * (the generated or override ConfigMap, else the image's own config, which the bundled base
 * stands for) and a container environment. After `${env.…}` substitution with that environment
 * and `~` expanded with its HOME (the image's `/` when the Deployment sets none), every path the
 * config writes — sqlite files, uploaded files, vector stores — and the server's own config
 * directory must lie on the volume the Deployment mounts for state (the PVC, else the emptyDir).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { STORAGE_VOLUME } from "../../lib/children/volumes";
import { LINE_STARTUP, schemaTagOf, stateLayout } from "../../lib/distributions/releases";
import { bundledBaseConfig } from "../../lib/distributions/bundled";
import { RELEASES, type Release } from "../../lib/distributions/table";
import { sync } from "../../lib/sync/sync";
import { KEYS, objectsOf, type KubeObject, type SyncRequest } from "../../lib/wire/metacontroller";
import { fixtureFound } from "../external-fixtures";
import { withoutRefused } from "../sample-files";
import { deps, sampleRequest } from "../sync-builders";
import { containerEnv } from "./container-env";
import { serverCheckOf, tableFor } from "./from-sync";
import { expandUser, isDict, replaceEnvVars, resourceIdFields, type Env } from "./substitution";

const SAMPLES = join(__dirname, "..", "..", "samples");
const samples = readdirSync(SAMPLES)
  .filter((f) => f.endsWith(".yaml"))
  .sort();

/** Keys whose value is a file or directory the server writes. */
const WRITTEN = /(^|_)(db_path|storage_dir|path|dir)$/;
/** Files the server only reads (certificates, the config itself, credentials). */
const READ_ONLY = /^(tls_|ssl_|ca_)|(cert|key|ca)_?(file|path)$|^config_path$|credentials/;

type Found = { readonly key: string; readonly value: string };

function writtenPaths(node: unknown, key = ""): Found[] {
  if (Array.isArray(node)) return node.flatMap((item) => writtenPaths(item, key));
  if (isDict(node)) return Object.entries(node).flatMap(([k, v]) => writtenPaths(v, k));
  const isPath = typeof node === "string" && (node.startsWith("/") || node.startsWith("~"));
  return isPath && WRITTEN.test(key) && !READ_ONLY.test(key) ? [{ key, value: node }] : [];
}

const normalized = (path: string): string => path.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
const under = (path: string, dir: string): boolean =>
  normalized(path) === normalized(dir) || normalized(path).startsWith(`${normalized(dir)}/`);

type Pod = {
  spec: { template: { spec: { containers: { volumeMounts?: { name: string; mountPath: string }[] }[] } } };
};

function stateMount(children: readonly KubeObject[]): string {
  const deployment = children.find((c) => c.kind === "Deployment") as unknown as Pod;
  const mount = deployment.spec.template.spec.containers[0]!.volumeMounts?.find((m) => m.name === STORAGE_VOLUME);
  if (!mount) throw new Error("the server container mounts no state volume");
  return mount.mountPath;
}

/** The sample with its storage at another path (a PVC at `/srv/llsd-state`). */
function withCustomMount(request: SyncRequest): SyncRequest {
  const parent = structuredClone(request.parent) as KubeObject & { spec: { workload?: { storage?: object } } };
  parent.spec.workload = { ...parent.spec.workload, storage: { size: "5Gi", mountPath: "/srv/llsd-state" } };
  return { ...request, parent };
}

interface Run {
  readonly label: string;
  readonly mount: string;
  readonly escaped: string[];
}

function run(label: string, request: SyncRequest, release: Release): Run | undefined {
  const spec = (request.parent as { spec?: { distribution?: { name?: string } } }).spec;
  const answer = sync(request, { ...deps(), distributions: tableFor(release) }, fixtureFound(spec));
  if (!answer.children.some((c) => c.kind === "Deployment")) return undefined;
  const mount = stateMount(answer.children);
  const check = serverCheckOf(answer, request.related, release);
  const env: Env = check?.env ?? containerEnv(answer.children, objectsOf(request.related, KEYS.secret));
  // No config mounted: the image runs its own, which the bundled base of its distribution is.
  const text = check?.configYaml ?? bundledBaseConfig(spec?.distribution?.name ?? "starter", release);
  if (text === undefined) return undefined;
  // The images run with HOME=/ (1.x sets it; 0.7 and 0.8 run a UID without a home of its own).
  const home = env.HOME ?? "/";
  const config = replaceEnvVars(parse(text), { ...env, HOME: home }, resourceIdFields(schemaTagOf(release)));
  const { stateDir, configDirEnv } = LINE_STARTUP[release];
  const configDir = { key: configDirEnv, value: env[configDirEnv] ?? `~/${stateDir}` };
  const escaped = [...writtenPaths(config), configDir]
    .map(({ key, value }) => ({ key, path: expandUser(value, home) }))
    .filter(({ path }) => !under(path, mount))
    .map(({ key, path }) => `${key}: ${path}`);
  return { label, mount, escaped };
}

describe.each(RELEASES)("state on the %s line", (release) => {
  const runs = samples.flatMap((file) => {
    const written = sampleRequest(join(SAMPLES, file));
    // A field the line refuses (tests/sample-files.ts) decides no path: the rest of the sample is checked.
    const parent = { ...written.parent, spec: withoutRefused(written.parent.spec as object, release, file) };
    const request = { ...written, parent };
    // An overrideConfig names its own paths (the sample's are under its mountPath): moving the
    // mount is the user's edit of both, so only the sample as written is checked.
    const own = (request.parent.spec as { overrideConfig?: unknown }).overrideConfig !== undefined;
    const custom = own ? undefined : run(`${file} (custom mountPath)`, withCustomMount(request), release);
    return [run(file, request, release), custom].filter((r): r is Run => r !== undefined);
  });

  it("is checked for every sample, with the default and a custom mount", () => {
    // Not moved: an overrideConfig's paths (its own), and a workload of several pods, which one
    // ReadWriteOnce volume cannot serve (the multi-replica guard refuses it: no Deployment to read).
    const moved = samples.filter((file) => {
      const spec = sampleRequest(join(SAMPLES, file)).parent.spec as {
        overrideConfig?: unknown;
        workload?: { replicas?: number; autoscaling?: unknown };
      };
      return spec.overrideConfig === undefined && (spec.workload?.replicas ?? 1) <= 1 && !spec.workload?.autoscaling;
    });
    expect(runs.map((r) => r.label).sort()).toEqual(
      [...samples, ...moved.map((file) => `${file} (custom mountPath)`)].sort(),
    );
    expect(runs.some((r) => r.mount === "/srv/llsd-state")).toBe(true);
  });

  it("lies on the mounted volume: no path the config writes, and not the server's config directory, escapes it", () => {
    expect(
      runs.filter((r) => r.escaped.length > 0).map((r) => `${r.label} (mount ${r.mount}): ${r.escaped.join("; ")}`),
    ).toEqual([]);
  });
});

describe("docs/server-lines.md, 'Where the server keeps its state'", () => {
  const text = readFileSync(join(__dirname, "..", "..", "docs", "server-lines.md"), "utf8");
  const section = text.slice(text.indexOf("## Where the server keeps its state"));
  const rows = (header: string) => {
    const table = section.slice(section.indexOf(header)).split("\n");
    return table
      .slice(2)
      .filter((l, i, all) => l.startsWith("|") && all.slice(0, i).every((x) => x.startsWith("|")))
      .map((l) =>
        l
          .split("|")
          .slice(1, -1)
          .map((c) => c.trim().replace(/`/g, "")),
      );
  };

  it("its table of lines is LINE_STARTUP", () => {
    const table = rows("| line | state directory |");
    // The 1.x lines (1.2, 1.3) share one row, so they must start alike.
    const expected = RELEASES.map((r) => {
      const s = LINE_STARTUP[r];
      return [r.startsWith("1.") ? "1.x" : r, `~/${s.stateDir}`, s.configDirEnv, s.portEnv, s.workersEnv ?? "—"];
    }).filter((row, i, all) => JSON.stringify(row) !== JSON.stringify(all[i - 1]));
    expect(table.map((r) => r.slice(0, 5))).toEqual(
      expected.map((row): unknown[] => [...row.slice(0, 4), expect.stringContaining(row[4]!)]),
    );
  });

  it("its HOME table is what the Deployment sets with the default mount path", () => {
    const table = rows("| line | `HOME` |");
    expect(table).toHaveLength(2);
    for (const [lines, home, stateDir] of table)
      for (const line of lines!.split(", "))
        expect([line, stateLayout(line === "1.x" ? "1.3" : (line as Release), "/.llama")]).toEqual([
          line,
          { home, stateDir: stateDir!.split(" ")[0] },
        ]);
  });
});
