#!/usr/bin/env node
/** Entry point of `llsd` (`npm run llsd -- <args>`). */
import { runCli } from "./cli";
import { processIo } from "./io";

process.exitCode = runCli(process.argv.slice(2), processIo);
