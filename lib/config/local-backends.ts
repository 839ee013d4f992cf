/**
 * A storage backend the server would reach on the loopback address. In a pod that is the
 * server's own container, where no database listens: the upstream postgres-demo config, run
 * without `spec.storage`, points at `${env.POSTGRES_HOST:=localhost}`. The config is written as
 * it is (a sidecar could serve it); the status says where the server will look and how to fix it.
 */
import { type ConfigDoc } from "./doc";
import { isPlainObject } from "../json";
import { resolvedWithout, USER_ENV_PATH } from "./env-check";
import { ENV_REF } from "./env-refs";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "::1", "[::1]"]);

/** The variable a `${env.X:=…}` host reads, for the fix. */
function variableOf(host: string): string | undefined {
  return new RegExp(ENV_REF.source).exec(host)?.[1];
}

function fixFor(type: string, variable: string | undefined): string {
  const spec = type.startsWith("kv_")
    ? "spec.storage.kv (sqlite on the volume, postgres with a connectionString Secret, or redis with its endpoint)"
    : "spec.storage.sql (sqlite on the volume, or postgres with a connectionString Secret)";
  return variable === undefined ? `set ${spec}` : `set ${spec}, or ${variable} in ${USER_ENV_PATH}`;
}

export function loopbackBackendNotes(doc: ConfigDoc, provided: ReadonlySet<string>): string[] {
  const backends = isPlainObject(doc.storage) && isPlainObject(doc.storage.backends) ? doc.storage.backends : {};
  const notes: string[] = [];
  for (const id of Object.keys(backends)) {
    const backend = backends[id];
    if (!isPlainObject(backend) || typeof backend.host !== "string" || typeof backend.type !== "string") continue;
    const host = resolvedWithout(backend.host, provided)?.trim();
    if (host === undefined || !LOOPBACK.has(host)) continue;
    notes.push(
      `storage.backends.${id}: the server looks for its ${backend.type} store at ${host}, inside its own pod, where nothing listens, and cannot start without it; ${fixFor(backend.type, variableOf(backend.host))}`,
    );
  }
  return notes;
}
