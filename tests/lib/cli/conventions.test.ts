/**
 * `llsd` keeps the conventions of a command-line tool, run as a real process (tsx, bash):
 * `--version`, `help COMMAND` and `help --help`, `-` for stdin, and a quiet exit when the
 * reader of stdout goes away (`llsd render … | head -1`).
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stringify } from "yaml";
import { DEFAULT_RELEASE, RELEASES } from "../../../lib/distributions/table";
import { llsd } from "../../cli-helpers";

const ROOT = join(__dirname, "..", "..", "..");
const TSX = join(ROOT, "node_modules", ".bin", "tsx");
const MAIN = join(ROOT, "lib", "cli", "main.ts");
const VERSION: unknown = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version;

const cr = (name: string): object => ({
  apiVersion: "llamastack.io/v1alpha2",
  kind: "LlamaStackDistribution",
  metadata: { name },
  spec: {
    distribution: { name: "starter" },
    providers: { inference: { provider: "vllm", endpoint: "http://v:8000" } },
  },
});

let scratch = "";
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "llsd-cli-"));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("llsd as a process", () => {
  it("--version prints the hooks' version, the checkout's commit and the server lines", () => {
    const run = spawnSync(TSX, [MAIN, "--version"], { encoding: "utf8" });
    const head = spawnSync("git", ["rev-parse", "HEAD"], { encoding: "utf8" }).stdout.trim();
    expect([run.status, run.stdout, run.stderr]).toEqual([
      0,
      `llsd-hooks ${String(VERSION)}\ncommit: ${head}\nserver lines: ${RELEASES.join(", ")} (new CRs: ${DEFAULT_RELEASE}; llsd releases says what each covers)\n`,
      "",
    ]);
  });

  it("a FILE of - reads stdin", () => {
    const run = spawnSync(TSX, [MAIN, "validate", "-"], { encoding: "utf8", input: stringify(cr("piped")) });
    expect([run.status, run.stdout]).toEqual([0, "-: llamastack.io/v1alpha2 piped: valid\n"]);
  });

  it("stops quietly, with its own exit code, when the reader of stdout has gone (| head -1)", () => {
    // Far more output than a pipe buffers: the writes after `head` exits fail with EPIPE.
    const file = join(scratch, "many.yaml");
    writeFileSync(file, Array.from({ length: 60 }, (_, i) => stringify(cr(`llsd-${i}`))).join("---\n"));
    const run = spawnSync(
      "bash",
      ["-o", "pipefail", "-c", `"$0" "$1" render "$2" 2>"$3" | head -1`, TSX, MAIN, file, join(scratch, "err")],
      {
        encoding: "utf8",
      },
    );
    const notNotes = readFileSync(join(scratch, "err"), "utf8")
      .split("\n")
      .filter((l) => l !== "" && !l.startsWith("note: "));
    expect({ status: run.status, stdout: run.stdout, notNotes }).toEqual({
      status: 0,
      stdout: expect.stringMatching(/^# llsd-0: config.yaml for the .* server line, sha256 [0-9a-f]{64}\n$/),
      notNotes: [],
    });
  });
});

describe("help", () => {
  it.each([
    [["help", "--help"], "help"],
    [["help", "help"], "help"],
    [["help", "releases"], "releases"],
    [["releases", "--help"], "releases"],
  ])("llsd %j prints that command's usage", (args, command) => {
    const run = llsd(args);
    expect([run.code, run.stderr]).toEqual([0, ""]);
    expect(run.stdout).toMatch(new RegExp(`^Usage: llsd ${command}\\b[^]*\\n\\nExit codes: `));
  });

  it("llsd --help lists --version and says - reads stdin", () => {
    const run = llsd(["--help"]);
    expect(run.stdout).toContain("llsd --version\n");
    expect(run.stdout).toContain("A FILE of - reads stdin.");
  });
});
