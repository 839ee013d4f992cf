#!/usr/bin/env node
/** Entry point of `llsd` (`npm run llsd -- <args>`). */
import { errorCode } from "../errors";
import { runCli } from "./cli";
import { processIo } from "./io";

// `llsd render x | head -1`: the reader is gone, so the rest of the output has nowhere to go;
// stop quietly with the command's own exit code instead of an EPIPE stack trace.
process.stdout.on("error", (error) => {
  if (errorCode(error) !== "EPIPE") throw error;
  process.exit();
});

process.exitCode = runCli(process.argv.slice(2), processIo);
