/** `llsd`: the hooks' code, offline. Returns an exit code; never calls process.exit itself. */
import { distributionNames, DEFAULT_DISTRIBUTIONS, DEFAULT_RELEASE, RELEASES } from "../distributions/table";
import { buildCommit } from "../build-commit";
import { packageVersion } from "../package-version";
import { meant } from "../suggest";
import { exactlyOne, firstLine, oneOf, parsed } from "./args";
import { releaseLines } from "./releases";
import { UsageError, type CliIo } from "./io";
import { renderCommand } from "./render";
import { convertCommand, migrateCommand } from "./convert";
import { convertToOgxCommand } from "./convert-ogx";
import { migrateFromOgxCommand } from "./migrate-ogx";
import { OGX_API_VERSION } from "../ogx/schema";
import type { AdoptOptions } from "../ogx/adopt";
import { requestCommand } from "./request";
import { validateCommand } from "./validate";
import { ALLOW_WEAKER_HELP } from "./weaker";

interface Command {
  /** The synopsis and what it does, as `llsd <command> --help` prints it. */
  readonly help: string;
  readonly run: (args: readonly string[], io: CliIo) => number;
}

const EXIT_CODES = "Exit codes: 0 done, 1 invalid input (each problem printed with its field path), 2 usage error.";

const COMMANDS: { readonly [name: string]: Command } = {
  render: {
    help: `llsd render FILE [--base-config FILE] [--release ${RELEASES.join("|")}]
  Print the generated config.yaml and the server container's env for each
  LlamaStackDistribution in FILE (v1alpha1 is converted first, with a note).
  Notes and warnings go to stderr. A CR that validate refuses prints every
  problem and nothing on stdout.`,
    run: (args, io) => {
      const options = { "base-config": { type: "string" }, release: { type: "string" } } as const;
      const { values, positionals } = parsed("render", args, options);
      const release = values.release === undefined ? undefined : oneOf("--release", values.release, RELEASES);
      const file = exactlyOne("render", positionals);
      return renderCommand({ file, baseConfig: values["base-config"], ...(release ? { release } : {}) }, io);
    },
  },
  validate: {
    help: `llsd validate FILE...
  Check every LlamaStackDistribution (v1alpha1 or v1alpha2) in the files with
  the admission webhook's code: the schema, the rules, and what generating
  config.yaml would refuse. Prints "valid" or every problem per object.`,
    run: (args, io) => validateCommand(parsed("validate", args).positionals, io),
  },
  convert: {
    help: `llsd convert --to v1alpha1|v1alpha2 [--allow-weaker] FILE
  Convert with the conversion webhook's code (lossless: fields the target
  cannot hold ride in an annotation). Other kinds pass through.
  --to v1alpha2 (or llamastack.io/v1alpha2) also reads OGXServer objects.
llsd convert --to ogx.io/v1beta1 [--adopt [--name NAME]] [--allow-weaker] FILE
  Turn each LlamaStackDistribution into the peer operator's OGXServer
  (lossless both ways; every difference in behaviour is a warning on stderr).
  --adopt gives it a new name (NAME, or <name>-ogx) and the peer's adoption
  annotations, and prints the steps that hand over the PVC and Service.
  ${ALLOW_WEAKER_HELP}`,
    run: (args, io) => {
      const options = {
        to: { type: "string" },
        adopt: { type: "boolean" },
        name: { type: "string" },
        "allow-weaker": { type: "boolean" },
      } as const;
      const { values, flags, positionals } = parsed("convert", args, options);
      if (values.to === undefined) throw new UsageError(`convert needs --to ${TARGETS.join(", ")}`);
      const to = oneOf("--to", values.to, TARGETS);
      const file = exactlyOne("convert", positionals);
      const adopt = adoptOptions(to, flags.has("adopt"), values.name);
      const weaker = { allowWeaker: flags.has("allow-weaker") };
      if (to === OGX_API_VERSION) return convertToOgxCommand(file, adopt ? { adopt, ...weaker } : weaker, io);
      return convertCommand(to.endsWith("v1alpha1") ? "v1alpha1" : "v1alpha2", file, weaker, io);
    },
  },
  migrate: {
    help: `llsd migrate FILE [--release ${RELEASES.join("|")}]
  Upgrade to v1alpha2 idiomatically: the env-var patterns of v1alpha1
  (VLLM_URL, OLLAMA_URL, INFERENCE_MODEL, …) become providers and models;
  stderr says what changed and what was left as it was. The CR stays on the
  server line it runs (a note names the image and line; the image is pinned
  when a v1alpha2 CR would start another one). --release moves it to that
  line instead and says what changes: APIs, provider types, state.
llsd migrate --from ogxserver [--allow-weaker] FILE
  Turn each OGXServer (ogx.io/v1beta1) into the LLSD of the same name that
  takes over its running children, its data kept; stderr has the warnings,
  the steps in order, what the first sync changes, and the rollback.
  ${ALLOW_WEAKER_HELP}`,
    run: (args, io) => {
      const options = {
        release: { type: "string" },
        from: { type: "string" },
        "allow-weaker": { type: "boolean" },
      } as const;
      const { values, flags, positionals } = parsed("migrate", args, options);
      const file = exactlyOne("migrate", positionals);
      if (values.from !== undefined) {
        oneOf("--from", values.from, ["ogxserver"]);
        if (values.release !== undefined) throw new UsageError("migrate --from ogxserver takes no --release");
        return migrateFromOgxCommand(file, { allowWeaker: flags.has("allow-weaker") }, io);
      }
      if (flags.has("allow-weaker")) throw new UsageError("--allow-weaker goes with --from ogxserver");
      const release = values.release === undefined ? undefined : oneOf("--release", values.release, RELEASES);
      return migrateCommand(file, release ? { release } : {}, io);
    },
  },
  request: {
    help: `llsd request sync|customize FILE
  Print the hook request Metacontroller would send for the first
  LlamaStackDistribution in FILE (Secrets and ConfigMaps in FILE become related
  objects), e.g. to pipe into curl against a running service.`,
    run: (args, io) => {
      const { positionals } = parsed("request", args);
      if (positionals.length > 2) throw new UsageError("request takes sync or customize, then one FILE");
      return requestCommand(positionals[0], positionals[1], io);
    },
  },
  distributions: {
    help: `llsd distributions
  List the named distributions, their pinned images and server lines.`,
    run: (args, io) => {
      if (parsed("distributions", args).positionals.length > 0)
        throw new UsageError("distributions takes no arguments");
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
      if (parsed("releases", args).positionals.length > 0) throw new UsageError("releases takes no arguments");
      for (const row of releaseLines()) io.stdout(`${row}\n`);
      return 0;
    },
  },
  help: {
    help: `llsd help [COMMAND]
  Show this help, or one command's (also: llsd COMMAND --help).`,
    run: (args, io) => {
      const { positionals } = parsed("help", args);
      if (positionals.length > 1) throw new UsageError("help takes at most one COMMAND");
      const topic = positionals[0];
      if (topic === undefined) io.stdout(USAGE);
      else io.stdout(`Usage: ${commandNamed(topic).help}\n\n${EXIT_CODES}\n`);
      return 0;
    },
  },
};

/** `--adopt [--name NAME]`, which only a conversion to OGXServer takes. */
function adoptOptions(to: string, adopt: boolean, name: string | undefined): AdoptOptions | undefined {
  if (to !== OGX_API_VERSION && (adopt || name !== undefined))
    throw new UsageError(`--adopt and --name go with --to ${OGX_API_VERSION}`);
  if (name !== undefined && !adopt) throw new UsageError("--name goes with --adopt");
  if (!adopt) return undefined;
  return name === undefined ? {} : { name };
}

const TARGETS = ["v1alpha1", "v1alpha2", "llamastack.io/v1alpha1", "llamastack.io/v1alpha2", OGX_API_VERSION] as const;

export const USAGE = `Usage: llsd <command> [options]   (llsd <command> --help for one command)

Commands:
${Object.values(COMMANDS)
  .map((c) => c.help)
  .join("\n")}
llsd --version
  The hooks' version, the commit it was built from, and the server lines they support.

A FILE of - reads stdin. ${EXIT_CODES}
`;

const HELP_FLAGS = new Set(["--help", "-h"]);

/** `llsd --version`: what a bug report needs, the hooks' version, its commit and the server lines. */
function version(io: CliIo): number {
  io.stdout(`llsd-hooks ${packageVersion() ?? "(unknown version)"}\n`);
  io.stdout(`commit: ${buildCommit() ?? "unknown (no BUILD_COMMIT, no git)"}\n`);
  io.stdout(
    `server lines: ${RELEASES.join(", ")} (new CRs: ${DEFAULT_RELEASE}; llsd releases says what each covers)\n`,
  );
  return 0;
}

/** The command of that name, or a usage error that names the one it is a typo of. */
function commandNamed(name: string): Command {
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command !== undefined) return command;
  const names = Object.keys(COMMANDS);
  throw new UsageError(
    `unknown command ${JSON.stringify(name)}${meant(name, names, `; the commands: ${names.join(", ")}`)}`,
  );
}

export function runCli(argv: readonly string[], io: CliIo): number {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stdout(USAGE);
    return 2; // no command is an error; asking for help is not
  }
  if (HELP_FLAGS.has(name)) {
    io.stdout(USAGE);
    return 0;
  }
  if (name === "--version") return version(io);
  try {
    const command = commandNamed(name);
    if (rest.some((a) => HELP_FLAGS.has(a))) {
      io.stdout(`Usage: ${command.help}\n\n${EXIT_CODES}\n`);
      return 0;
    }
    return command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      const known = Object.hasOwn(COMMANDS, name);
      io.stderr(`error: ${error.message}\nRun "llsd ${known ? `${name} ` : ""}--help" for usage.\n`);
      return 2;
    }
    io.stderr(`error: ${firstLine(error)} (an internal error of llsd ${name}; please report it)\n`);
    return 2;
  }
}
