/**
 * The command a v1alpha1 CR with `userConfig` runs: the Go operator
 * replaced the image entrypoint with a shell script that picks the server's entry point from the
 * installed llama-stack version and starts it on the mounted /etc/llama-stack/config.yaml.
 * Written here anew with the same behaviour:
 *
 *   llama-stack < 0.2.17  → python3 -m llama_stack.distribution.server.server --config <config>
 *   llama-stack < 0.3.0   → python3 -m llama_stack.core.server.server <config>
 *   otherwise, or when the version cannot be read
 *                         → uvicorn llama_stack.core.server.server:create_app --factory
 *                           on 0.0.0.0, port $LLS_PORT (8321), $LLS_WORKERS workers (1);
 *                           the server finds its config through LLAMA_STACK_CONFIG.
 *
 * Pre-release versions compare by their base version (0.3.0rc1 counts as 0.3.0), as in the Go
 * operator. Unlike it, every branch `exec`s, so the server is PID 1 and gets SIGTERM.
 */
import { CONFIG_PATH } from "../defaults";

const PICK_ENTRY_POINT = [
  "from importlib.metadata import version",
  "from packaging.version import Version",
  'v = Version(Version(version("llama_stack")).base_version)',
  'print("distribution" if v < Version("0.2.17") else "core" if v < Version("0.3.0") else "uvicorn")',
].join("\n");

export const STARTUP_SCRIPT = [
  "set -e",
  `config=${CONFIG_PATH}`,
  `entry=$(python3 -c '${PICK_ENTRY_POINT}' 2>/dev/null || echo uvicorn)`,
  'echo "llama-stack entry point: $entry" >&2',
  'case "$entry" in',
  '  distribution) exec python3 -m llama_stack.distribution.server.server --config "$config" ;;',
  '  core) exec python3 -m llama_stack.core.server.server "$config" ;;',
  '  *) exec uvicorn llama_stack.core.server.server:create_app --factory --host 0.0.0.0 --port "${LLS_PORT:-8321}" --workers "${LLS_WORKERS:-1}" ;;',
  "esac",
  "",
].join("\n");

export const STARTUP_COMMAND: readonly string[] = ["/bin/sh", "-c", STARTUP_SCRIPT];
