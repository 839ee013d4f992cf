/**
 * Argo CD's health scripts, run the way Argo CD runs them: a Lua 5.1 chunk (Argo CD embeds
 * gopher-lua, a Lua 5.1) that sees the object as the global `obj` and returns `{status, message}`.
 * Here the interpreter is Debian's real `lua5.1`; JSON objects become Lua table constructors.
 */
import { spawnSync } from "node:child_process";

const INSTALL_HINT = "The Argo CD health tests need a Lua 5.1 interpreter: run `apt-get install -y lua5.1`.";

/**
 * A Lua string literal: every byte that is not printable ASCII as a decimal escape (Lua 5.1 has
 * no \x), always three digits: `\34` before a digit would read as one escape (`"1.3"` → `\341`).
 */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, "utf8")) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, "0")}`;
  }
  return `${out}"`;
}

/** JSON → a Lua value, as Argo CD converts the object: null is nil, arrays are 1-based sequences. */
export function toLua(value: unknown): string {
  if (value === null || value === undefined) return "nil";
  if (typeof value === "string") return luaString(value);
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `{${value.map(toLua).join(", ")}}`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null && v !== undefined);
  return `{${entries.map(([k, v]) => `[${luaString(k)}] = ${toLua(v)}`).join(", ")}}`;
}

export interface Health {
  readonly status: string;
  readonly message: string;
}

/** Runs `script` once per object in one `lua5.1` process; the answers in order. */
export function runHealthScript(scriptPath: string, objects: readonly unknown[]): Health[] {
  const driver = [
    `local cases = {${objects.map(toLua).join(",\n")}}`,
    "for _, o in ipairs(cases) do",
    "  obj = o",
    `  local hs = dofile(${luaString(scriptPath)})`,
    '  io.write(tostring(hs.status), "\\30", tostring(hs.message), "\\31")',
    "end",
  ].join("\n");
  const run = spawnSync("lua5.1", ["-"], { input: driver, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (run.error !== undefined) throw new Error(`${INSTALL_HINT} (${run.error.message})`);
  if (run.status !== 0) throw new Error(`lua5.1 failed (${String(run.status)}): ${run.stderr}`);
  const answers = run.stdout.split("\x1f").slice(0, -1);
  if (answers.length !== objects.length) throw new Error(`lua5.1 answered ${answers.length} of ${objects.length}`);
  return answers.map((a) => {
    const [status = "", message = ""] = a.split("\x1e");
    return { status, message };
  });
}
