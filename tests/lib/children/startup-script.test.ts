/**
 * The v1alpha1 userConfig startup script (the Go operator's, docs/migrating-from-go-operator.md), run for real by /bin/sh
 * with stand-ins for python3 and uvicorn on PATH; the version check itself runs in the real
 * python3 against a fake installed llama_stack.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STARTUP_COMMAND, STARTUP_SCRIPT } from "../../../lib/children/startup-script";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "llsd-script-"));
  const bin = join(dir, "bin");
  mkdirSync(bin);
  // python3 -c … prints what FAKE_ENTRY says (or fails); python3 -m … shows how it was started.
  writeFileSync(
    join(bin, "python3"),
    '#!/bin/sh\nif [ "$1" = "-c" ]; then [ "$FAKE_ENTRY" = fail ] && exit 1; echo "$FAKE_ENTRY"; else echo "python3 $*"; fi\n',
  );
  writeFileSync(join(bin, "uvicorn"), '#!/bin/sh\necho "uvicorn $*"\n');
  chmodSync(join(bin, "python3"), 0o755);
  chmodSync(join(bin, "uvicorn"), 0o755);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>): string {
  const [shell, flag, script] = STARTUP_COMMAND as [string, string, string];
  return execFileSync(shell, [flag, script], {
    env: { PATH: `${join(dir, "bin")}:/usr/bin:/bin`, ...env },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }).trim();
}

describe("the v1alpha1 startup script", () => {
  it.each([
    [
      "a llama-stack older than 0.2.17",
      "distribution",
      "python3 -m llama_stack.distribution.server.server --config /etc/llama-stack/config.yaml",
    ],
    [
      "a llama-stack older than 0.3.0",
      "core",
      "python3 -m llama_stack.core.server.server /etc/llama-stack/config.yaml",
    ],
    [
      "a current llama-stack",
      "uvicorn",
      "uvicorn llama_stack.core.server.server:create_app --factory --host 0.0.0.0 --port 9000 --workers 4",
    ],
    [
      "a version that cannot be read",
      "fail",
      "uvicorn llama_stack.core.server.server:create_app --factory --host 0.0.0.0 --port 9000 --workers 4",
    ],
  ])("given %s (the check says %s), starts the matching command", (_title, entry, started) => {
    expect(run({ FAKE_ENTRY: entry, LLS_PORT: "9000", LLS_WORKERS: "4" })).toBe(started);
  });

  it("defaults to port 8321 and one worker, like the Go operator's script", () => {
    expect(run({ FAKE_ENTRY: "uvicorn" })).toBe(
      "uvicorn llama_stack.core.server.server:create_app --factory --host 0.0.0.0 --port 8321 --workers 1",
    );
  });

  it("is the command of the container, args emptied", () => {
    expect(STARTUP_COMMAND).toEqual(["/bin/sh", "-c", STARTUP_SCRIPT]);
  });
});

/** The version check the script runs, as python3 would run it. */
function entryFor(version: string | undefined): string {
  const site = mkdtempSync(join(dir, "site-"));
  if (version !== undefined) {
    const info = join(site, `llama_stack-${version}.dist-info`);
    mkdirSync(info);
    writeFileSync(join(info, "METADATA"), `Metadata-Version: 2.1\nName: llama_stack\nVersion: ${version}\n`);
  }
  const code = /python3 -c '([^']*)'/.exec(STARTUP_SCRIPT)![1]!;
  const result = spawnSync("python3", ["-c", code], {
    env: { PYTHONPATH: site, PATH: process.env.PATH ?? "" },
    encoding: "utf8",
  });
  return result.status === 0 ? result.stdout.trim() : `exit ${result.status}`;
}

const hasPackaging = spawnSync("python3", ["-c", "import packaging.version"]).status === 0;

(hasPackaging ? describe : describe.skip)("the version check (real python3; needs the packaging module)", () => {
  it.each([
    ["0.2.16", "distribution"],
    ["0.2.17", "core"],
    ["0.2.23", "core"],
    ["0.3.0rc2", "uvicorn"],
    ["0.7.1", "uvicorn"],
  ])("llama_stack %s → %s", (version, entry) => {
    expect(entryFor(version)).toBe(entry);
  });

  it("without llama_stack installed, fails (the script then uses uvicorn)", () => {
    expect(entryFor(undefined)).toMatch(/^exit [1-9]/);
  });
});
