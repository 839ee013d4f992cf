/**
 * Examples cannot rot: every shell block in README.md, docs/*.md, metacontroller/README.md and
 * crds/README.md, and every `# Check it:` and `# $` command in samples/, runs here, offline,
 * and must exit as the doc says; where the doc shows output, stdout must match it. The
 * conventions (docs/cli.md, "Examples in the docs"):
 *
 * - A fenced block whose info string starts with `sh` (or `bash`) runs with `bash -e -o
 *   pipefail`, from a scratch directory that links the repository's top-level entries (so paths
 *   like `samples/…` work and files the example writes stay out of the checkout).
 * - Markers after `sh`: `cluster` (needs a cluster, an image builder or the network),
 *   `placeholder` (has values to fill in), `skip` (never ends, recurses or rewrites the checkout:
 *   `npm start` in the foreground, `npm test`, `npm run gen:crds`) — not run; `exit=N` — runs and
 *   must exit N (default 0). Any other word fails this test, so a typo cannot silently skip an
 *   example.
 * - An `output` block right after a shell block is its expected stdout (stderr is not compared).
 *   Whitespace at line ends is ignored. `…` inside a line matches any text (a hash, a time); a
 *   line of only `…` matches any number of lines. Nothing else is tolerated. Output shown after a
 *   `cluster` block is checked against its stand-in (stand-ins.ts: `kubectl get llsd` from the
 *   CRD's columns and a real /sync answer); output shown any other way (a `text` or plain block
 *   as the next block after a shell block) fails this test, so no output goes unchecked.
 * - One hooks service is started here, on a free port; examples that start one (`npm start … &`)
 *   use it instead: that line starts `sleep 300 &` in its place (a job the README's stop step
 *   stops), `localhost:8080` becomes this service's address, and the README's pid file
 *   `/tmp/llsd-hooks.pid` one in the scratch directory. A line `npm ci` is a no-op too (the test
 *   runs after it; run here it would replace the node_modules the test itself runs from). Those
 *   are the only rewrites.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STAND_INS } from "./stand-ins";

const ROOT = join(__dirname, "..", "..");
const FILES = [
  "README.md",
  "metacontroller/README.md",
  "crds/README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const SAMPLES = readdirSync(join(ROOT, "samples")).map((f) => `samples/${f}`);
const MARKERS = new Set(["cluster", "placeholder", "skip"]);

interface Example {
  readonly file: string;
  readonly line: number;
  readonly script: string;
  readonly run: boolean;
  readonly exit: number;
  readonly output?: string;
  /** Why it is not run (a marker), if it is not. */
  readonly marker?: string;
}

/** The fenced blocks of a Markdown file, with their info strings and first lines. */
function blocks(text: string): { info: string; body: string; line: number }[] {
  const out: { info: string; body: string; line: number }[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && lines[i] !== "```"; i++) body.push(lines[i]!);
    out.push({ info: open[1]!.trim(), body: body.join("\n"), line: start + 1 });
  }
  return out;
}

function examplesOf(file: string): Example[] {
  const all = blocks(readFileSync(join(ROOT, file), "utf8"));
  const examples: Example[] = [];
  all.forEach((b, i) => {
    const [lang, ...words] = b.info.split(/\s+/);
    if (lang !== "sh" && lang !== "bash") return;
    const unknown = words.filter((w) => !MARKERS.has(w) && !/^exit=\d+$/.test(w));
    if (unknown.length > 0)
      throw new Error(`${file}:${b.line}: unknown marker(s) ${unknown.join(", ")} on a shell block`);
    const next = all[i + 1];
    if (next !== undefined && /^(text)?$/.test(next.info))
      throw new Error(
        `${file}:${next.line}: output shown after a shell block must be an \`output\` block, so it is checked`,
      );
    const exit = Number(words.find((w) => w.startsWith("exit="))?.slice(5) ?? 0);
    const marker = words.find((w) => MARKERS.has(w));
    examples.push({
      file,
      line: b.line,
      script: b.body,
      exit,
      run: marker === undefined,
      ...(marker !== undefined ? { marker } : {}),
      ...(next?.info === "output" ? { output: next.body } : {}),
    });
  });
  return examples;
}

/**
 * A sample's commands: `# Check it:` (or `# Try it offline:`) runs and must exit 0; `# $ command`
 * runs too, and the comment lines right after it (up to a bare `#`), without their `# `, are its
 * expected stdout.
 */
function sampleChecks(file: string): Example[] {
  const lines = readFileSync(join(ROOT, file), "utf8").split("\n");
  return lines.flatMap((l, i) => {
    const check = /^# (?:Check it|Try it offline):\s+(\S.*)$/.exec(l)?.[1];
    if (check !== undefined) return [{ file, line: i + 1, script: check, exit: 0, run: true }];
    const shown = /^# \$ (\S.*)$/.exec(l)?.[1];
    if (shown === undefined) return [];
    const rest = lines.slice(i + 1);
    const end = rest.findIndex((o) => !o.startsWith("# ") || o.startsWith("# $ "));
    const output = rest.slice(0, end === -1 ? rest.length : end).map((o) => o.slice(2));
    return [{ file, line: i + 1, script: shown, exit: 0, run: true, output: output.join("\n") }];
  });
}

/** `…` matches any text within a line; a line of only `…` any number of lines. */
function matches(expected: string, actual: string): boolean {
  const pattern = expected
    .split("\n")
    .map((l) => l.trimEnd())
    .map((l) => (l === "…" ? "(?:[^\\n]*\\n)*?" : `${l.split("…").map(escape).join("[^\\n]*")}\\n`))
    .join("");
  return new RegExp(`^${pattern}$`).test(
    `${actual
      .split("\n")
      .map((l) => l.trimEnd())
      .join("\n")
      .replace(/\n*$/, "")}\n`,
  );
}
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

let port = 0;
let service: ChildProcess | undefined;
let scratch = "";

beforeAll(async () => {
  port = await freePort();
  scratch = mkdtempSync(join(tmpdir(), "llsd-doc-examples-"));
  for (const entry of readdirSync(ROOT)) if (entry !== ".git") symlinkSync(join(ROOT, entry), join(scratch, entry));
  // Started as the README's quick start starts it (`LLSD_READ_IMAGE_LABELS=false npm start`): offline,
  // the bundled base configs instead of the registry. A test below keeps the README saying so.
  service = spawn(join(ROOT, "node_modules", ".bin", "tsx"), ["hooks/main.ts"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), LOG_LEVEL: "warn", LLSD_READ_IMAGE_LABELS: "false" },
    stdio: "ignore",
  });
  for (let i = 0; i < 120; i++) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("the hooks service did not become ready");
}, 60_000);

afterAll(() => {
  service?.kill("SIGINT");
  if (!scratch) return;
  // The links first, one by one: nothing here may ever reach into the checkout.
  for (const entry of readdirSync(scratch)) {
    const path = join(scratch, entry);
    if (lstatSync(path).isSymbolicLink()) unlinkSync(path);
    else rmSync(path, { recursive: true, force: true });
  }
  rmSync(scratch, { recursive: true, force: true });
});

const EXAMPLES = [...FILES.flatMap(examplesOf), ...SAMPLES.flatMap(sampleChecks)];

it("finds the examples, and every runnable one outside the quick starts is covered", () => {
  expect(EXAMPLES.filter((e) => e.run).length).toBeGreaterThan(10);
  expect(EXAMPLES.filter((e) => e.run && e.output !== undefined).length).toBeGreaterThan(5);
  expect(EXAMPLES.filter((e) => e.file.startsWith("samples/")).length).toBeGreaterThan(5);
  expect(EXAMPLES.filter((e) => e.file.startsWith("samples/") && e.output !== undefined).length).toBeGreaterThan(1);
});

/** The command whose output a cluster block shows: its last line that is not a comment. */
const lastCommand = (script: string): string =>
  script
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.trim().startsWith("#"))
    .pop() ?? "";

describe("output shown for commands this test cannot run", () => {
  const shown = EXAMPLES.filter((e) => !e.run && e.output !== undefined);
  it("is shown only after cluster commands, each with a stand-in", () => {
    expect(shown.map((e) => [e.file, e.line, e.marker, lastCommand(e.script) in STAND_INS])).toEqual(
      shown.map((e) => [e.file, e.line, "cluster", true]),
    );
  });
  it.each(shown.map((e) => [`${e.file}:${e.line}: ${lastCommand(e.script)}`, e] as const))(
    "%s matches its stand-in",
    async (_title, example) => {
      const standIn = STAND_INS[lastCommand(example.script)];
      const expected = standIn === undefined ? "(no stand-in)" : await standIn(port);
      // The stand-in is the pattern: its `…` (the age) matches whatever the doc shows there.
      expect({ shown: example.output, matches: matches(expected, example.output ?? "") }).toEqual({
        shown: example.output,
        matches: true,
      });
    },
  );
});

describe.each([...FILES, ...SAMPLES.filter((f) => sampleChecks(f).length > 0)])("%s", (file) => {
  const runnable = EXAMPLES.filter((e) => e.file === file && e.run);
  const title = (e: Example): string => `line ${e.line}: ${e.script.split("\n")[0]}`;
  if (runnable.length === 0) {
    it("has no runnable shell example", () => expect(EXAMPLES.filter((e) => e.file === file && e.run)).toEqual([]));
    return;
  }
  it.each(runnable.map((e) => [title(e), e] as const))("%s", (_title, example) => {
    const script = example.script
      // A job the README's stop step can stop, in the place of the service this test started.
      .replace(
        /^(?:[A-Z_]+=\S*\s+)*npm start\b.*&\s*(#.*)?$/gm,
        "sleep 300 > /dev/null 2>&1 &   # npm start: this test's service answers",
      )
      .replace(/\/tmp\/llsd-hooks\.pid/g, join(scratch, "llsd-hooks.pid"))
      .replace(/^npm ci\b.*$/gm, ": # npm ci: done before the test")
      .replace(/localhost:8080/g, `localhost:${port}`);
    const result = spawnSync("bash", ["-e", "-o", "pipefail", "-c", script], {
      // No kubeconfig: an example that needs a cluster fails here instead of reaching one.
      cwd: scratch,
      encoding: "utf8",
      timeout: 120_000,
      env: { ...process.env, PORT: String(port), NO_COLOR: "1", KUBECONFIG: join(scratch, "no-such-kubeconfig") },
    });
    const where = `${example.file}:${example.line} (run in ${scratch})`;
    expect({ where, exit: result.status, stderr: result.status === example.exit ? "" : result.stderr }).toEqual({
      where,
      exit: example.exit,
      stderr: "",
    });
    if (example.output !== undefined) {
      expect({ where, matches: matches(example.output, result.stdout), stdout: result.stdout }).toEqual({
        where,
        matches: true,
        stdout: result.stdout,
      });
    }
  });
});
