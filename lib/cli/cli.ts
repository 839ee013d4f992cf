/** `llsd`: the hooks' code, offline. Returns an exit code; never calls process.exit itself. */
import { parseArgs } from "node:util";
import { thrownMessage } from "../errors";
import { distributionNames, DEFAULT_DISTRIBUTIONS, RELEASES } from "../distributions/table";
import { releaseLines } from "./releases";
import { UsageError, type CliIo } from "./io";
import { renderCommand } from "./render";
import { convertCommand, migrateCommand } from "./convert";
import { requestCommand } from "./request";
import { validateCommand } from "./validate";

interface Command {
  /** The synopsis and what it does, as `llsd <command> --help` prints it. */
  readonly help: string;
  readonly run: (args: readonly string[], io: CliIo) => number;
}

const EXIT_CODES = "Exit codes: 0 done, 1 invalid input (each problem printed with its field path), 2 usage error.";

function parsed(
  args: readonly string[],
  options: { [name: string]: { type: "string" } } = {},
): { values: { [k: string]: string | undefined }; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args: [...args], allowPositionals: true, options, strict: true });
    return { values, positionals };
  } catch (error) {
    throw new UsageError(firstLine(error) ?? "bad arguments");
  }
}

/** The first line of a thrown error's message (undefined when it has none). */
function firstLine(error: unknown): string | undefined {
  return thrownMessage(error)?.split("\n")[0];
}

function exactlyOne(command: string, positionals: readonly string[]): string {
  if (positionals.length !== 1 || positionals[0] === undefined)
    throw new UsageError(`${command} takes exactly one FILE`);
  return positionals[0];
}

const COMMANDS: { readonly [name: string]: Command } = {
  render: {
    help: `llsd render FILE [--base-config FILE] [--release ${RELEASES.join("|")}]
  Print the generated config.yaml and the server container's env for each
  LlamaStackDistribution in FILE (v1alpha1 is converted first, with a note).
  Notes and warnings go to stderr. Invalid specs print every problem.`,
    run: (args, io) => {
      const { values, positionals } = parsed(args, { "base-config": { type: "string" }, release: { type: "string" } });
      return renderCommand(
        { file: exactlyOne("render", positionals), baseConfig: values["base-config"], release: values.release },
        io,
      );
    },
  },
  validate: {
    help: `llsd validate FILE...
  Check every LlamaStackDistribution (v1alpha1 or v1alpha2) in the files with
  the admission webhook's code: the schema, the rules, and what generating
  config.yaml would refuse. Prints "valid" or every problem per object.`,
    run: (args, io) => validateCommand(parsed(args).positionals, io),
  },
  convert: {
    help: `llsd convert --to v1alpha1|v1alpha2 FILE
  Convert with the conversion webhook's code (lossless: fields the target
  cannot hold ride in an annotation). Other kinds pass through.`,
    run: (args, io) => {
      const { values, positionals } = parsed(args, { to: { type: "string" } });
      return convertCommand(values.to, exactlyOne("convert", positionals), io);
    },
  },
  migrate: {
    help: `llsd migrate FILE
  Upgrade to v1alpha2 idiomatically: the env-var patterns of v1alpha1
  (VLLM_URL, OLLAMA_URL, INFERENCE_MODEL, …) become providers and models;
  stderr says what changed and what was left as it was.`,
    run: (args, io) => migrateCommand(exactlyOne("migrate", parsed(args).positionals), io),
  },
  request: {
    help: `llsd request sync|customize FILE
  Print the hook request Metacontroller would send for the first
  LlamaStackDistribution in FILE (Secrets and ConfigMaps in FILE become related
  objects), e.g. to pipe into curl against a running service.`,
    run: (args, io) => {
      const { positionals } = parsed(args);
      if (positionals.length > 2) throw new UsageError("request takes sync or customize, then one FILE");
      return requestCommand(positionals[0], positionals[1], io);
    },
  },
  distributions: {
    help: `llsd distributions
  List the named distributions, their pinned images and server lines.`,
    run: (args, io) => {
      if (parsed(args).positionals.length > 0) throw new UsageError("distributions takes no arguments");
      for (const name of distributionNames()) {
        const entry = DEFAULT_DISTRIBUTIONS.find((e) => e.name === name);
        io.stdout(`${name}\t${entry?.image ?? ""}\t(${entry?.release ?? "?"}.x)\n`);
      }
      return 0;
    },
  },
  releases: {
    help: `llsd releases
  List the supported server lines, one per row, oldest first: the value
  --release accepts, then what the line covers.`,
    run: (args, io) => {
      if (parsed(args).positionals.length > 0) throw new UsageError("releases takes no arguments");
      for (const row of releaseLines()) io.stdout(`${row}\n`);
      return 0;
    },
  },
};

export const USAGE = `Usage: llsd <command> [options]   (llsd <command> --help for one command)

Commands:
${Object.values(COMMANDS)
  .map((c) => c.help)
  .join("\n")}
llsd help [COMMAND]
  Show this help, or one command's.

${EXIT_CODES}
`;

const HELP_FLAGS = new Set(["--help", "-h"]);

export function runCli(argv: readonly string[], io: CliIo): number {
  const [name, ...rest] = argv;
  if (name === undefined || HELP_FLAGS.has(name) || name === "help") return help(name, rest[0], io);
  const command = COMMANDS[name];
  if (command === undefined) {
    io.stderr(`error: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  if (rest.some((a) => HELP_FLAGS.has(a))) {
    io.stdout(`Usage: ${command.help}\n\n${EXIT_CODES}\n`);
    return 0;
  }
  try {
    return command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`error: ${error.message}\nRun "llsd ${name} --help" for usage.\n`);
      return 2;
    }
    io.stderr(`error: ${firstLine(error)} (an internal error of llsd ${name}; please report it)\n`);
    return 2;
  }
}

/** `llsd`, `llsd --help`, `llsd help [COMMAND]`: no command is an error (2), asking for help is not. */
function help(name: string | undefined, next: string | undefined, io: CliIo): number {
  const topic = name === "help" ? next : undefined;
  const command = topic !== undefined ? COMMANDS[topic] : undefined;
  if (topic !== undefined && command === undefined) {
    io.stderr(`error: unknown command "${topic}"\n\n${USAGE}`);
    return 2;
  }
  io.stdout(command ? `Usage: ${command.help}\n\n${EXIT_CODES}\n` : USAGE);
  return name === undefined ? 2 : 0;
}
