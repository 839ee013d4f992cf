/**
 * Registry credentials and challenges. Pure: parsing `WWW-Authenticate`, reading
 * `kubernetes.io/dockerconfigjson` Secrets, building Basic headers. Error messages never quote
 * the Secret's content.
 */
import { createHash } from "node:crypto";
import { isPlainObject } from "../json";
import { normalizeRegistryHost } from "./reference";
import { fail, ok, REASON, type Result } from "./types";

/** One `auths` entry: explicit username/password, or the base64 `user:password` pair Docker writes. */
export type RegistryCredential = { readonly username: string; readonly password: string } | { readonly auth: string };

/** Normalised registry host (`docker.io`, `quay.io`, `127.0.0.1:5000`) → its credential. */
export type CredentialLookup = (host: string) => RegistryCredential | undefined;

export type Challenge =
  | { readonly scheme: "basic" }
  | { readonly scheme: "bearer"; readonly realm: string; readonly service?: string; readonly scope?: string };

const PARAM = /([A-Za-z][\w-]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]*))/g;

/** `Bearer realm="https://auth.docker.io/token",service="registry.docker.io"` → its parts; undefined when unusable. */
export function parseChallenge(header: string | null | undefined): Challenge | undefined {
  const match = /^\s*(Basic|Bearer)\b(.*)$/is.exec(header ?? "");
  if (match === null) return undefined;
  if (match[1]?.toLowerCase() === "basic") return { scheme: "basic" };
  const params = challengeParams(match[2] ?? "");
  const realm = params.get("realm");
  if (realm === undefined || realm === "") return undefined;
  const service = params.get("service");
  const scope = params.get("scope");
  return { scheme: "bearer", realm, ...(service ? { service } : {}), ...(scope ? { scope } : {}) };
}

/** `key="quoted \" value",key=bare` → lower-cased key → unescaped value. */
function challengeParams(text: string): Map<string, string> {
  const params = new Map<string, string>();
  for (const [, key, quoted, bare] of text.matchAll(PARAM)) {
    if (key !== undefined) params.set(key.toLowerCase(), (quoted ?? bare ?? "").replace(/\\(.)/g, "$1"));
  }
  return params;
}

function nonEmptyString(value: unknown): value is string {
  return typeof value === "string" && value !== "";
}

/**
 * The `.dockerconfigjson` key of a `kubernetes.io/dockerconfigjson` Secret → host → credential.
 * Entries without usable credentials (e.g. only `identitytoken`) are skipped; keys are
 * normalised, so `https://index.docker.io/v1/` becomes `docker.io`.
 */
export function parseDockerConfigJson(text: string): Result<ReadonlyMap<string, RegistryCredential>> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return fail(
      REASON.authFailed,
      "the registry credentials are not valid JSON (expected a .dockerconfigjson document)",
    );
  }
  const auths = isPlainObject(doc) ? doc.auths : undefined;
  if (!isPlainObject(auths)) {
    return fail(
      REASON.authFailed,
      'the registry credentials have no "auths" object (expected a .dockerconfigjson document)',
    );
  }
  const credentials = new Map<string, RegistryCredential>();
  for (const [key, entry] of Object.entries(auths)) {
    const host = normalizeRegistryHost(key);
    if (host === "" || credentials.has(host)) continue;
    const credential = parseCredential(entry);
    if (credential !== undefined) credentials.set(host, credential);
  }
  return ok(credentials);
}

/** One `auths` entry → a credential, or undefined when it has none we can use. */
function parseCredential(entry: unknown): RegistryCredential | undefined {
  if (!isPlainObject(entry)) return undefined;
  const { username, password, auth } = entry;
  if (nonEmptyString(username) && typeof password === "string") return { username, password };
  return nonEmptyString(auth) ? { auth } : undefined;
}

/** One lookup over several credential sets; the first that knows a host wins (e.g. namespace Secret, then the hooks' own). */
export function credentialLookup(
  ...sources: ReadonlyArray<ReadonlyMap<string, RegistryCredential> | undefined>
): CredentialLookup {
  return (host) => {
    const key = normalizeRegistryHost(host);
    for (const source of sources) {
      const found = source?.get(key);
      if (found !== undefined) return found;
    }
    return undefined;
  };
}

export function basicAuthorization(credential: RegistryCredential): string {
  if ("auth" in credential) return `Basic ${credential.auth}`;
  return `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString("base64")}`;
}

/**
 * Caches and single-flight keys include who is asking, so one namespace's pull secret never
 * serves another namespace an image it cannot pull. A hash, never the secret itself.
 */
export function credentialFingerprint(credential: RegistryCredential | undefined): string {
  if (credential === undefined) return "anonymous";
  const material =
    "auth" in credential ? `auth\0${credential.auth}` : `user\0${credential.username}\0${credential.password}`;
  return createHash("sha256").update(material).digest("hex").slice(0, 32);
}
