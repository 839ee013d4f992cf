/** `llsd`: the hooks' code, offline. Returns an exit code; never calls process.exit itself. */
import { parseArgs } from "node:util";
import { distributionNames, DEFAULT_DISTRIBUTIONS, RELEASES } from "../distributions/table";
import { releaseLines } from "./releases";
import type { CliIo } from "./io";
import { renderCommand } from "./render";
import { convertCommand, migrateCommand } from "./convert";
import { requestCommand } from "./request";
import { validateCommand } from "./validate";

export const USAGE = `Usage: llsd <command> [options]

Commands:
  render FILE [--base-config F] [--release ${RELEASES.join("|")}]
                 Print the generated config.yaml and container env for each
                 LlamaStackDistribution (v1alpha2) in FILE. Invalid specs exit 1
                 and print every error with its field path.
  validate FILE...
                 Check every LlamaStackDistribution (v1alpha1 or v1alpha2) in the
                 files as the apiserver and the admission webhook would: CRD schema,
                 CEL rules, then semantic rules. Exit 1 on any invalid object.
  convert --to v1alpha1|v1alpha2 FILE
                 Convert with the conversion webhook's code (lossless; fields the
                 target cannot hold ride in an annotation). Other kinds pass through.
  migrate FILE   Upgrade to v1alpha2 idiomatically: the migration guide's env-var
                 patterns (VLLM_URL, OLLAMA_URL, INFERENCE_MODEL, …) become providers
                 and models; stderr says what changed and what was left as it was.
  request sync|customize FILE
                 Print the hook request Metacontroller would send for the first
                 LlamaStackDistribution in FILE (Secrets/ConfigMaps in FILE become
                 related objects), e.g. for curl against a running service.
  distributions  List the named distributions and their pinned images.
  releases       List the supported server lines, one per row, oldest first: the
                 value --release accepts, then what the line covers.
  help           Show this help.
`;

function distributionsCommand(io: CliIo): number {
  for (const name of distributionNames()) {
    const entry = DEFAULT_DISTRIBUTIONS.find((e) => e.name === name);
    io.stdout(`${name}\t${entry?.image ?? ""}\t(${entry?.release ?? "?"}.x)\n`);
  }
  return 0;
}

export function runCli(argv: readonly string[], io: CliIo): number {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case "render": {
        const { values, positionals } = parseArgs({
          args: [...rest],
          allowPositionals: true,
          options: { "base-config": { type: "string" }, release: { type: "string" } },
        });
        if (positionals.length !== 1 || positionals[0] === undefined) {
          io.stderr(`error: render takes exactly one FILE\n\n${USAGE}`);
          return 2;
        }
        return renderCommand({ file: positionals[0], baseConfig: values["base-config"], release: values.release }, io);
      }
      case "validate":
        return validateCommand(rest, io);
      case "convert": {
        const { values, positionals } = parseArgs({ args: [...rest], allowPositionals: true, options: { to: { type: "string" } } });
        if (positionals.length !== 1) {
          io.stderr(`error: convert takes exactly one FILE\n\n${USAGE}`);
          return 2;
        }
        return convertCommand(values.to, positionals[0]!, io);
      }
      case "migrate":
        if (rest.length !== 1) {
          io.stderr(`error: migrate takes exactly one FILE\n\n${USAGE}`);
          return 2;
        }
        return migrateCommand(rest[0]!, io);
      case "request":
        return requestCommand(rest[0], rest[1] ?? "", io);
      case "distributions":
        return distributionsCommand(io);
      case "releases":
        for (const row of releaseLines()) io.stdout(`${row}\n`);
        return 0;
      case "help": case "--help": case "-h": case undefined:
        io.stdout(USAGE);
        return command === undefined ? 2 : 0;
      default:
        io.stderr(`error: unknown command "${command}"\n\n${USAGE}`);
        return 2;
    }
  } catch (error) {
    io.stderr(`error: ${(error as Error).message}\n`);
    return 2;
  }
}
