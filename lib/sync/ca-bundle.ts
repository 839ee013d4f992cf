/**
 * The managed CA bundle, as the Go operator builds it: the PEM certificates of the keys
 * `networking.tls.caBundle` lists (of each ConfigMap, in spec order, when it lists several), plus every key of the namespace's `odh-trusted-ca-bundle`
 * ConfigMap when it exists, each parsed as X.509, re-encoded and joined into one
 * `ca-bundle.crt`. A bad certificate the user listed fails the sync with which key, which
 * certificate and why (never the PEM); a bad key of the ODH bundle is skipped with a note.
 */
import { createHash, X509Certificate } from "node:crypto";
import { fieldError, listOf, type FieldError } from "../errors";
import type { CaBundleSource, Tls } from "../api/canonical";
import { isPlainObject } from "../json";
import { KEYS, lookup, stringEntries, type KubeObject, type ObjectMap } from "../wire/metacontroller";
import { perObjectVersion, textBytes } from "../caches";
import type { SyncFailure } from "../status/status";

/** Injected by OpenDataHub / OpenShift AI into namespaces: cluster-wide trusted CAs. */
export const ODH_TRUSTED_CA_BUNDLE = "odh-trusted-ca-bundle";
/** Go operator limits on what is read. */
export const MAX_CA_BUNDLE_BYTES = 10 * 1024 * 1024;
export const MAX_CA_CERTIFICATES = 1000;
/** The apiserver refuses a ConfigMap whose data exceeds 1 MiB. */
export const MAX_CONFIGMAP_BYTES = 1024 * 1024;

export interface CaBundle {
  /** `ca-bundle.crt`: PEM certificates, each re-encoded, joined by a blank line. */
  readonly data: string;
  /** SHA-256 (hex) of `data`: the pod-template annotation that rolls pods when it changes. */
  readonly hash: string;
  readonly certificates: number;
}

export type CaBundleOutcome =
  { readonly bundle?: CaBundle; readonly notes: readonly string[] } | { readonly failure: SyncFailure };

const CAPATH = "spec.networking.tls.caBundle";
const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** One certificate: its DER (base64, the identity duplicates are found by) and its clean PEM. */
export interface Certificate {
  readonly base64: string;
  readonly pem: string;
}

type KeyResult =
  | { readonly ok: true; readonly certificates: readonly Certificate[] }
  | { readonly ok: false; readonly message: string };

/**
 * What a kept parse holds: each certificate's base64 and PEM text, or the failure's message.
 */
function keyResultBytes(result: KeyResult): number {
  if (!result.ok) return textBytes(result.message);
  return result.certificates.reduce((n, c) => n + 32 + textBytes(c.base64) + textBytes(c.pem), 32);
}

/**
 * A key's certificates, kept by its ConfigMap (lib/caches.ts `objectKey`, with its content's
 * fingerprint): OpenSSL 3 takes 0.13 to 0.18 ms a certificate, and while a rollout converges
 * every resync finds the same bundle (docs/development.md, "Caches").
 */
const parsedByVersion = perObjectVersion<KeyResult>("CA certificates", keyResultBytes);

function certificatesOf(configMap: KubeObject | undefined, key: string): KeyResult {
  return parsedByVersion(configMap, key, () => certificatesIn(stringEntries(configMap?.data)[key] ?? ""));
}

/** A key's PEM text → the DER of each CERTIFICATE block (other PEM types are skipped). */
export function certificatesIn(text: string): KeyResult {
  if (text.trim() === "") return { ok: true, certificates: [] };
  const certificates: Certificate[] = [];
  let index = 0;
  for (const match of text.matchAll(PEM_BLOCK)) {
    if (match[1] !== "CERTIFICATE") continue;
    index += 1;
    const body = (match[2] ?? "").replace(/\s+/g, "");
    if (!BASE64.test(body) || body.length % 4 !== 0)
      return { ok: false, message: `certificate ${index}: the PEM body is not base64` };
    const der = Buffer.from(body, "base64");
    try {
      void new X509Certificate(der);
    } catch (error) {
      return { ok: false, message: `certificate ${index} is not a valid X.509 certificate (${parseError(error)})` };
    }
    certificates.push({ base64: der.toString("base64"), pem: pem(der) });
  }
  if (index === 0)
    return {
      ok: false,
      message: "holds no PEM CERTIFICATE block (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----)",
    };
  return { ok: true, certificates };
}

/** OpenSSL's reason, without anything of the input. */
function parseError(error: unknown): string {
  // Node tries DER, then PEM, and reports the PEM attempt: the DER did not parse.
  if (isPlainObject(error) && error.code === "ERR_OSSL_PEM_NO_START_LINE") return "its DER encoding does not parse";
  const message = error instanceof Error ? error.message : "";
  const reason = /::([^:]+)$/.exec(message)?.[1] ?? message.split(":").pop() ?? "";
  return reason.trim().slice(0, 200) || "unparseable";
}

function pem(der: Buffer): string {
  const lines = der.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

export interface CaBundleLimits {
  /** Bytes of certificates read, duplicates included. */
  readonly bytes: number;
  readonly certificates: number;
  /** Bytes of the managed ConfigMap's data. */
  readonly configMapBytes: number;
}

export const CA_BUNDLE_LIMITS: CaBundleLimits = {
  bytes: MAX_CA_BUNDLE_BYTES,
  certificates: MAX_CA_CERTIFICATES,
  configMapBytes: MAX_CONFIGMAP_BYTES,
};

class Collector {
  readonly pems: string[] = [];
  private readonly seen = new Set<string>();
  bytes = 0;
  count = 0;

  constructor(private readonly limits: CaBundleLimits) {}

  /** Duplicates (the same CA in both sources) are written once. */
  add(certificates: readonly Certificate[]): void {
    for (const { base64, pem: text } of certificates) {
      this.count += 1;
      this.bytes += text.length;
      if (this.seen.has(base64)) continue;
      this.seen.add(base64);
      this.pems.push(text);
    }
  }

  limitProblem(): string | undefined {
    if (this.bytes > this.limits.bytes) return `the CA certificates add up to more than ${this.limits.bytes} bytes`;
    if (this.count > this.limits.certificates)
      return `the CA bundle holds more than ${this.limits.certificates} certificates`;
    return undefined;
  }
}

export interface CaBundleInput {
  readonly tls: Tls;
  readonly related?: ObjectMap;
  readonly namespace: string;
}

const fail = (errors: FieldError[], reason = "InvalidCABundle"): { readonly failure: SyncFailure } => ({
  failure: { type: "ConfigGenerated", reason, errors },
});

function tooLarge(collector: Collector, path: string): { readonly failure: SyncFailure } | undefined {
  const problem = collector.limitProblem();
  return problem ? fail([fieldError(path, `${problem}; trust fewer CAs`)], "CABundleTooLarge") : undefined;
}

/** The certificates of the keys the spec lists, ConfigMap by ConfigMap: a bad one fails the sync with which key and why. */
function addWanted(input: CaBundleInput, collector: Collector): { readonly failure: SyncFailure } | undefined {
  for (const wanted of input.tls.caBundle ?? []) {
    const failure = addSource(input, wanted, collector);
    if (failure) return failure;
  }
  return undefined;
}

function addSource(
  input: CaBundleInput,
  wanted: CaBundleSource,
  collector: Collector,
): { readonly failure: SyncFailure } | undefined {
  // Presence of the ConfigMap and its keys was checked with every other reference.
  const configMap = lookup(input.related, KEYS.configMap, input.namespace, wanted.configMapName);
  for (const [i, key] of wanted.configMapKeys.entries()) {
    const result = certificatesOf(configMap, key);
    const path = `${wanted.path}.configMapKeys[${i}]`;
    if (!result.ok) {
      return fail([
        fieldError(
          path,
          `ConfigMap ${wanted.configMapName} key "${key}": ${result.message}; put PEM-encoded CA certificates there`,
        ),
      ]);
    }
    collector.add(result.certificates);
    const over = tooLarge(collector, path);
    if (over) return over;
  }
  return undefined;
}

/** Every key of the namespace's ODH bundle: a bad one is skipped with a note. */
function addOdh(
  input: CaBundleInput,
  collector: Collector,
  notes: string[],
): { readonly failure: SyncFailure } | undefined {
  const odh = lookup(input.related, KEYS.configMap, input.namespace, ODH_TRUSTED_CA_BUNDLE);
  for (const key of Object.keys(stringEntries(odh?.data)).sort()) {
    const result = certificatesOf(odh, key);
    if (!result.ok) {
      notes.push(`ConfigMap ${ODH_TRUSTED_CA_BUNDLE} key "${key}" skipped: ${result.message}`);
      continue;
    }
    collector.add(result.certificates);
    const over = tooLarge(collector, `ConfigMap ${ODH_TRUSTED_CA_BUNDLE}`);
    if (over) return over;
  }
  return undefined;
}

/** The field a problem of the whole bundle is reported at: the one ConfigMap's name, or the list. */
const wantedPath = (wanted: readonly CaBundleSource[]): string =>
  wanted.length === 1 && wanted[0] ? `${wanted[0].path}.configMapName` : CAPATH;

/** What to say when the listed keys hold no certificate (the single form keeps its message). */
function emptyMessage(wanted: readonly CaBundleSource[]): string {
  const what = wanted.map((w) => `ConfigMap ${w.configMapName} keys ${listOf(w.configMapKeys)}`).join(" and ");
  const fix = wanted.length > 1 ? "remove them from caBundle" : "remove caBundle";
  return `${what} hold no certificate; put PEM-encoded CA certificates there or ${fix}`;
}

/** The bundle of what was collected, unless it holds nothing the spec asked for or exceeds a ConfigMap. */
function bundleOf(
  input: CaBundleInput,
  collector: Collector,
  limits: CaBundleLimits,
  notes: string[],
): CaBundleOutcome {
  const wanted = input.tls.caBundle;
  if (collector.pems.length === 0) {
    if (!wanted) return { notes };
    return fail([fieldError(wantedPath(wanted), emptyMessage(wanted))]);
  }
  const data = collector.pems.join("\n");
  if (Buffer.byteLength(data) > limits.configMapBytes) {
    return fail(
      [
        fieldError(
          wanted ? wantedPath(wanted) : `ConfigMap ${ODH_TRUSTED_CA_BUNDLE}`,
          `the CA bundle would take ${Buffer.byteLength(data)} bytes, more than a ConfigMap holds (${limits.configMapBytes}); trust fewer CAs`,
        ),
      ],
      "CABundleTooLarge",
    );
  }
  return {
    bundle: { data, hash: createHash("sha256").update(data).digest("hex"), certificates: collector.pems.length },
    notes,
  };
}

export function planCaBundle(input: CaBundleInput, limits: CaBundleLimits = CA_BUNDLE_LIMITS): CaBundleOutcome {
  const collector = new Collector(limits);
  const notes: string[] = [];
  return addWanted(input, collector) ?? addOdh(input, collector, notes) ?? bundleOf(input, collector, limits, notes);
}
