/**
 * External providers in the pod: one copy init container per provider in CR order, then the
 * install container; PYTHONPATH with the installed packages first. The two shell scripts are
 * run for real with `sh` (dash, POSIX), and the install one with a real Python + pip, so the
 * wheel really becomes importable the way the server imports it.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { V1Container, V1EnvVar } from "@kubernetes/client-node";
import { buildDeployment } from "../../../lib/children/deployment";
import {
  COPY_SCRIPT,
  EXTERNAL_PROVIDERS_VOLUME,
  EXTERNAL_SITE_DIR,
  INSTALL_SCRIPT,
  USER_PYTHONPATH,
} from "../../../lib/children/external-providers";
import type { JsonObject } from "../../../lib/api/v1alpha2";
import type { ChildContext } from "../../../lib/children/context";
import { EXTERNAL_INSTALL_CONTAINER, externalProviderContainer } from "../../../lib/names";
import { FIXTURE_DIGEST, resolvedExternals } from "../../external-fixtures";
import { aContext, IMAGE } from "./context-builder";

const EXTERNALS = {
  vectorIo: [{ providerId: "store", image: "registry.example.com/p/store:2", imagePullPolicy: "Always" as const }],
  inference: [
    { providerId: "first", image: "registry.example.com/p/first:1" },
    { providerId: "second", image: "registry.example.com/p/second@sha256:" + "b".repeat(64) },
  ],
};

function contextWith(env?: V1EnvVar[]): ChildContext {
  const overrides = env ? { env: env as unknown as JsonObject[] } : {};
  const ctx = aContext({ spec: { externalProviders: EXTERNALS, workload: { overrides } } });
  return { ...ctx, externalProviders: resolvedExternals(ctx.spec) };
}

const podOf = (ctx: ChildContext) => buildDeployment(ctx).spec!.template.spec!;
const server = (ctx: ChildContext): V1Container => podOf(ctx).containers[0]!;

describe("init containers", () => {
  const pod = podOf(contextWith());
  const init = pod.initContainers ?? [];

  it("copy each provider's wheels in CR order (sections in schema order), then install them with the distribution image", () => {
    expect(init.map((c) => c.name)).toEqual(["ext-first", "ext-second", "ext-store", EXTERNAL_INSTALL_CONTAINER]);
    expect(init.map((c) => c.image)).toEqual([
      `registry.example.com/p/first:1@${FIXTURE_DIGEST}`,
      `registry.example.com/p/second@sha256:${"b".repeat(64)}`,
      `registry.example.com/p/store:2@${FIXTURE_DIGEST}`,
      IMAGE,
    ]);
    expect(init.map((c) => c.imagePullPolicy)).toEqual(["IfNotPresent", "IfNotPresent", "Always", undefined]);
  });

  it("pass the wheel paths of the metadata and the install directories as arguments, not inside the script", () => {
    expect(init[0]!.command).toEqual([
      "sh",
      "-c",
      COPY_SCRIPT,
      "copy-wheels",
      "/opt/llsd-providers/wheels/ext-first",
      "/lls-provider/packages/first_provider-1.0.0-py3-none-any.whl",
    ]);
    expect(init[3]!.command).toEqual([
      "sh",
      "-c",
      INSTALL_SCRIPT,
      "install-wheels",
      EXTERNAL_SITE_DIR,
      "/opt/llsd-providers/wheels/ext-first",
      "/opt/llsd-providers/wheels/ext-second",
      "/opt/llsd-providers/wheels/ext-store",
    ]);
  });

  it("share one emptyDir, which the server mounts read-only, and run with the server's hardening and resources", () => {
    expect(pod.volumes).toContainEqual({ name: EXTERNAL_PROVIDERS_VOLUME, emptyDir: {} });
    expect(server(contextWith()).volumeMounts).toContainEqual({
      name: EXTERNAL_PROVIDERS_VOLUME,
      mountPath: "/opt/llsd-providers",
      readOnly: true,
    });
    for (const c of init) {
      expect(c.volumeMounts).toEqual([{ name: EXTERNAL_PROVIDERS_VOLUME, mountPath: "/opt/llsd-providers" }]);
      expect(c.securityContext).toEqual(pod.containers[0]!.securityContext);
      expect(c.resources).toEqual(pod.containers[0]!.resources);
    }
  });

  it("are absent, with their volume, without external providers", () => {
    const plain = podOf(aContext());
    expect(plain.initContainers).toBeUndefined();
    expect(plain.volumes?.map((v) => v.name)).not.toContain(EXTERNAL_PROVIDERS_VOLUME);
    expect(plain.containers[0]!.env?.map((e) => e.name)).not.toContain("PYTHONPATH");
  });

  it('never contain "$(": the kubelet would expand it in command and args', () => {
    for (const c of init) expect(JSON.stringify(c.command)).not.toContain("$(");
  });
});

describe("PYTHONPATH on the server container", () => {
  it.each<[string, V1EnvVar[] | undefined, V1EnvVar[]]>([
    ["no user PYTHONPATH", undefined, [{ name: "PYTHONPATH", value: EXTERNAL_SITE_DIR }]],
    [
      "a user value",
      [{ name: "PYTHONPATH", value: "/mine" }],
      [{ name: "PYTHONPATH", value: `${EXTERNAL_SITE_DIR}:/mine` }],
    ],
    ["an empty user value", [{ name: "PYTHONPATH", value: "" }], [{ name: "PYTHONPATH", value: EXTERNAL_SITE_DIR }]],
    [
      "a user valueFrom",
      [{ name: "PYTHONPATH", valueFrom: { configMapKeyRef: { name: "py", key: "path" } } }],
      [
        { name: USER_PYTHONPATH, valueFrom: { configMapKeyRef: { name: "py", key: "path" } } },
        { name: "PYTHONPATH", value: `${EXTERNAL_SITE_DIR}:$(${USER_PYTHONPATH})` },
      ],
    ],
  ])("given %s, puts the installed providers first", (_title, user, expected) => {
    const env = server(contextWith(user)).env ?? [];
    expect(env.filter((e) => e.name === "PYTHONPATH" || e.name === USER_PYTHONPATH)).toEqual(expected);
  });
});

describe("externalProviderContainer()", () => {
  it.each([
    ["vllm-custom", "ext-vllm-custom"],
    ["My_Provider.v2", "ext-my-provider-v2-"],
    ["x".repeat(70), "ext-" + "x".repeat(45) + "-"],
    ["___", "ext-"],
  ])("given %j, returns a DNS label starting %j", (id, start) => {
    const name = externalProviderContainer(id);
    expect(name.startsWith(start)).toBe(true);
    expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(name.length).toBeLessThanOrEqual(63);
  });

  it("keeps ids apart that slug alike", () => {
    expect(externalProviderContainer("a_b")).not.toBe(externalProviderContainer("a.b"));
  });
});

/** A minimal pure-Python wheel whose `<pkg>.provider.get_provider_spec()` answers `marker`. */
function buildWheel(dir: string, pkg: string, marker: string): string {
  const script = `
import base64, hashlib, sys, zipfile
d, pkg, marker = sys.argv[1:4]
files = {f"{pkg}/__init__.py": "", f"{pkg}/provider.py": f"def get_provider_spec():\\n    return {marker!r}\\n",
         f"{pkg}-1.0.0.dist-info/METADATA": f"Metadata-Version: 2.1\\nName: {pkg}\\nVersion: 1.0.0\\n",
         f"{pkg}-1.0.0.dist-info/WHEEL": "Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
record = [f"{p},sha256={base64.urlsafe_b64encode(hashlib.sha256(c.encode()).digest()).rstrip(b'=').decode()},{len(c.encode())}" for p, c in files.items()]
files[f"{pkg}-1.0.0.dist-info/RECORD"] = "\\n".join(record + [f"{pkg}-1.0.0.dist-info/RECORD,,"]) + "\\n"
with zipfile.ZipFile(f"{d}/{pkg}-1.0.0-py3-none-any.whl", "w") as z:
    for p, c in files.items(): z.writestr(p, c)
`;
  execFileSync("python3", ["-c", script, dir, pkg, marker]);
  return join(dir, `${pkg}-1.0.0-py3-none-any.whl`);
}

/** The distribution images install with pip; so does this test (`.ci/run` installs python3-pip when missing). */
function requirePip(): void {
  if (spawnSync("python3", ["-m", "pip", "--version"]).status !== 0)
    throw new Error("This test needs pip for python3: run `apt-get install -y python3-pip`.");
}

describe("the scripts, run with a real POSIX sh", () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "llsd-ext-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const sh = (script: string, name: string, args: string[], env: NodeJS.ProcessEnv = {}) =>
    spawnSync("sh", ["-c", script, name, ...args], { encoding: "utf8", env: { PATH: process.env.PATH, ...env } });

  it("the copy script copies wheel files and directories of wheels, replacing an earlier copy", () => {
    const image = join(root, "lls-provider");
    mkdirSync(join(image, "packages", "deps"), { recursive: true });
    writeFileSync(join(image, "packages", "p-1.0-py3-none-any.whl"), "p");
    writeFileSync(join(image, "packages", "deps", "d-2.0-py3-none-any.whl"), "d");
    const dest = join(root, "shared", "wheels", "ext-p");
    mkdirSync(dest, { recursive: true });
    writeFileSync(join(dest, "stale.whl"), "old");
    const run = sh(COPY_SCRIPT, "copy-wheels", [
      dest,
      join(image, "packages", "p-1.0-py3-none-any.whl"),
      join(image, "packages", "deps"),
    ]);
    expect(run.status).toBe(0);
    expect(readdirSync(dest).sort()).toEqual(["d-2.0-py3-none-any.whl", "p-1.0-py3-none-any.whl"]);
  });

  it("the copy script fails, naming the path, when the metadata names a file the image lacks", () => {
    const run = sh(COPY_SCRIPT, "copy-wheels", [join(root, "dest"), "/lls-provider/packages/missing with space.whl"]);
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain(
      "/lls-provider/packages/missing with space.whl (named in /lls-provider/lls-provider-spec.yaml) is not in this image",
    );
  });

  it("the install script pip-installs every provider offline, and the server's import then works", () => {
    requirePip();
    const wheels = [join(root, "wheels", "ext-a"), join(root, "wheels", "ext-b")];
    for (const dir of wheels) mkdirSync(dir, { recursive: true });
    buildWheel(wheels[0]!, "alpha_provider", "alpha-spec");
    buildWheel(wheels[1]!, "beta_provider", "beta-spec");
    const site = join(root, "site");
    const run = sh(INSTALL_SCRIPT, "install-wheels", [site, ...wheels], {
      TMPDIR: join(root, "tmp"),
      HOME: join(root, "tmp"),
      PIP_CONFIG_FILE: "/dev/null",
      PIP_NO_INDEX: "1",
    });
    expect(run.stderr).not.toMatch(/error/i);
    expect(run.status).toBe(0);
    expect(existsSync(join(site, "alpha_provider", "provider.py"))).toBe(true);
    const imported = execFileSync(
      "python3",
      [
        "-c",
        "import alpha_provider.provider as a, beta_provider.provider as b; print(a.get_provider_spec(), b.get_provider_spec())",
      ],
      { encoding: "utf8", env: { PATH: process.env.PATH, PYTHONPATH: site } },
    );
    expect(imported.trim()).toBe("alpha-spec beta-spec");
  });
});
