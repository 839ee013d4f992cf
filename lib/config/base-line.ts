/**
 * A base config written for another server line than the one that runs it. Shapes of an older
 * line are brought forward first (lib/config/dialect.ts); what is left, the line's server
 * refuses at start-up, so it is refused here, at the place in the file:
 * - an API the line does not have: `API 'eval' does not exist` (`Api(api_str)` in the
 *   server's core/resolver.py, validate_and_prepare_providers);
 * - a provider type the line's registry lacks: `Provider <type> is not available for API <api>`
 *   (validate_provider, same file);
 * - a type's config in another line's form, missing a key the line's class requires (1.x
 *   batches keep a `sqlstore`, 0.7/0.8 require a `kvstore`);
 * - the prompts and connectors stores as SQL tables (1.x) on a line that reads a key-value
 *   reference (`ServerStoresConfig`, 0.7/0.8).
 * Only what another line has is refused: an unknown name is not a sign of another line.
 */
import { child, fieldError, type FieldError } from "../errors";
import { RELEASES, type Release } from "../distributions/table";
import { type ConfigDoc, type ProviderEntry } from "./doc";
import { isPlainObject, type JsonMap } from "../json";
import { typeFields, type TypeFields } from "./provider-fields";
import { linesWithApi, RELEASE_APIS } from "../distributions/releases";

/** How each line's `storage.stores.prompts`/`connectors` are written (its `ServerStoresConfig`). */
const PROMPTS_STORE: { readonly [r in Release]: "kv" | "sql" } = {
  "0.7": "kv",
  "0.8": "kv",
  "1.2": "sql",
  "1.3": "sql",
};

const linesText = (lines: readonly Release[]): string =>
  `${lines.map((r) => `${r}.x`).join(", ")} line${lines.length > 1 ? "s" : ""}`;

function fix(release: Release, lines: readonly Release[]): string {
  return `this base config is written for another line: write it for the ${release} line, or run an image of the ${linesText(lines)} (distribution.image)`;
}

/** Each API the line lacks and another line has, once: at its providers, else at its entry in apis. */
function apiErrors(doc: ConfigDoc, release: Release, path: string): FieldError[] {
  const served = RELEASE_APIS[release];
  const foreign = (api: string) => !served.includes(api) && linesWithApi(api).length > 0;
  const inProviders = Object.keys(doc.providers).filter(foreign);
  const inApis = (doc.apis ?? [])
    .map((api, i) => ({ api, i }))
    .filter(({ api }) => foreign(api) && !inProviders.includes(api));
  const error = (at: string, api: string) =>
    fieldError(at, `the ${release} server line has no ${api} API; ${fix(release, linesWithApi(api))}`);
  return [
    ...inProviders.map((api) => error(child(child(path, "providers"), api), api)),
    ...inApis.map(({ api, i }) => error(child(child(path, "apis"), i), api)),
  ];
}

const linesWithType = (api: string, type: string): Release[] =>
  RELEASES.filter((r) => typeFields(r, api, type) !== undefined);

/** Where a provider entry sits, its path built only for an error (this runs on every sync). */
interface EntryPlace {
  readonly api: string;
  readonly index: number;
  readonly path: string;
  readonly release: Release;
}
const entryPath = (p: EntryPlace, ...rest: string[]): string =>
  [p.api, p.index, ...rest].reduce<string>((at, key) => child(at, key), child(p.path, "providers"));

/** The keys the type's class requires that `config` lacks (none for a type the line lacks). */
const missingKeys = (mine: TypeFields | undefined, config: JsonMap): string[] =>
  mine?.required?.filter((key) => !(key in config)) ?? [];

/** A type the line lacks, or its config in another line's form; undefined when the line takes it. */
function entryError(entry: ProviderEntry, place: EntryPlace): FieldError | undefined {
  if (entry.module !== undefined) return undefined; // an external provider: its own module, any line
  const { api, release } = place;
  const type = entry.provider_type;
  const mine = typeFields(release, api, type);
  const config: JsonMap = isPlainObject(entry.config) ? entry.config : {};
  const missing = missingKeys(mine, config);
  if (mine !== undefined && missing.length === 0) return undefined; // the usual case, kept cheap
  const others = linesWithType(api, type).filter((r) => r !== release);
  if (mine === undefined)
    return others.length === 0
      ? undefined
      : fieldError(
          entryPath(place, "provider_type"),
          `${type} is not a provider type of the ${release} line; ${fix(release, others)}`,
        );
  const linesWith = (key: string) => others.filter((r) => key in (typeFields(r, api, type)?.fields ?? {}));
  const theirs = Object.keys(config).find((key) => !(key in mine.fields) && linesWith(key).length > 0);
  if (theirs === undefined) return undefined;
  const lines = linesWith(theirs);
  return fieldError(
    entryPath(place, "config", theirs),
    `${type} takes ${theirs} on the ${linesText(lines)}, where the ${release} line's requires ${missing.join(", ")}; ${fix(release, lines)}`,
  );
}

function typeErrors(doc: ConfigDoc, release: Release, path: string): FieldError[] {
  const served = RELEASE_APIS[release];
  const errors: FieldError[] = [];
  for (const [api, list] of Object.entries(doc.providers)) {
    if (!served.includes(api)) continue; // said once, by apiErrors
    (list ?? []).forEach((entry, index) => {
      const error = entryError(entry, { api, index, path, release });
      if (error) errors.push(error);
    });
  }
  return errors;
}

function storeErrors(doc: ConfigDoc, release: Release, path: string): FieldError[] {
  const stores = isPlainObject(doc.storage) && isPlainObject(doc.storage.stores) ? doc.storage.stores : undefined;
  if (!stores || PROMPTS_STORE[release] !== "kv") return [];
  const sqlLines = RELEASES.filter((r) => PROMPTS_STORE[r] === "sql");
  return ["prompts", "connectors"]
    .filter((name) => {
      const store = stores[name];
      return isPlainObject(store) && "table_name" in store && !("namespace" in store);
    })
    .map((name) =>
      fieldError(
        `${path}.storage.stores.${name}`,
        `a SQL table (table_name), as the ${linesText(sqlLines)} write it, where the ${release} line reads {namespace, backend: <a kv_ backend>}; ${fix(release, sqlLines)}`,
      ),
    );
}

/** What in `doc` (a base already brought to `release`) only another line's server takes; `path` is where the base is. */
export function baseLineErrors(doc: ConfigDoc, release: Release, path: string): FieldError[] {
  return [...apiErrors(doc, release, path), ...typeErrors(doc, release, path), ...storeErrors(doc, release, path)];
}
