/**
 * Split a Postgres DSN into the discrete fields the server takes (host, port, db, user, password). Errors say
 * what is wrong with the DSN's shape and never echo it: it contains a password.
 */
import { DEFAULT_POSTGRES_PORT } from "../defaults";
import type { PostgresPart } from "../env-names";
import { safeDecodeURIComponent } from "../secret-scrub";

export type DsnParts = { readonly [part in PostgresPart]: string };

/** Characters the server's unescaped `postgresql+asyncpg://user:password@host/db` URL cannot carry. */
const URL_BREAKING = /[@:/?#]/;

type Parsed = { ok: true; parts: DsnParts } | { ok: false; reason: string };

/** Database, user and password, %-decoded; or which of them holds a bad %-escape. */
function decoded(url: URL): { db: string; user: string; password: string } | { ok: false; reason: string } {
  const db = safeDecodeURIComponent(url.pathname.replace(/^\//, ""));
  const user = safeDecodeURIComponent(url.username);
  const password = safeDecodeURIComponent(url.password);
  if (db !== undefined && user !== undefined && password !== undefined) return { db, user, password };
  const where = password === undefined ? "password" : user === undefined ? "user" : "database name";
  return {
    ok: false,
    reason: `has a % in its ${where} that is not a %-escape; write a literal % as %25 (percent-encode the ${where})`,
  };
}

function postgresUrl(dsn: string): URL | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(dsn.trim());
  } catch {
    return { ok: false, reason: "is not a URL of the form postgresql://user:password@host:5432/database" };
  }
  if (url.protocol !== "postgresql:" && url.protocol !== "postgres:") {
    return { ok: false, reason: `uses scheme "${url.protocol.replace(/:$/, "")}"; expected postgresql://` };
  }
  return url;
}

export function parsePostgresDsn(dsn: string): Parsed {
  const url = postgresUrl(dsn);
  if (!(url instanceof URL)) return url;
  const parts = decoded(url);
  if ("ok" in parts) return parts;
  const { db, user, password } = parts;
  if (url.hostname === "" || db === "" || user === "") {
    return { ok: false, reason: "needs a host, a user and a database: postgresql://user:password@host:5432/database" };
  }
  if (URL_BREAKING.test(password)) {
    return {
      ok: false,
      reason:
        "has a password containing one of @ : / ? # , which the server's connection URL cannot carry unescaped; change the password",
    };
  }
  return {
    ok: true,
    parts: { host: url.hostname, port: url.port || String(DEFAULT_POSTGRES_PORT), db, user, password },
  };
}
