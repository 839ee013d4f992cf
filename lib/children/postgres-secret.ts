/**
 * The derived Secret with the discrete parts of the user's Postgres DSNs (the server takes
 * host/port/db/user/password, not a DSN; lib/config/postgres-stores.ts says which keys hold
 * which store's). The only child that carries secret values.
 */
import type { V1Secret } from "@kubernetes/client-node";
import { derivedData } from "../config/postgres-stores";
import type { ChildContext } from "./context";
import { childMeta } from "./meta";

/** Text without a code unit above 0x7f: its UTF-8 bytes are its Latin-1 ones, which is what `btoa` encodes. */
const ASCII = /^[^\u0080-\uffff]*$/;

/** Base64 of the UTF-8 text; `btoa` for ASCII, several times faster than a Buffer round trip (every sync). */
function base64(text: string): string {
  return ASCII.test(text) ? btoa(text) : Buffer.from(text, "utf8").toString("base64");
}

export function buildPostgresSecret(ctx: ChildContext): V1Secret | undefined {
  const postgres = ctx.postgres;
  if (!postgres) return undefined;
  // `data`, not `stringData`: the apiserver never returns stringData, so Metacontroller would
  // see a difference on every sync and re-apply the Secret forever.
  const data: { [key: string]: string } = {};
  for (const [key, value] of derivedData(postgres)) data[key] = base64(value);
  return {
    apiVersion: "v1",
    kind: "Secret",
    metadata: childMeta(ctx, postgres.secretName),
    type: "Opaque",
    data,
  };
}
