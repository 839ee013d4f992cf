/**
 * The `files` provider a base config must have when one of its providers stores files: without
 * it the server stops at startup.
 */
import { SQL_BACKEND } from "../defaults";
import { effectiveId, type ConfigDoc } from "./doc";
import { isPlainObject } from "../json";
import { API_DEPENDENCIES, PROVIDER_DEPENDENCIES } from "../distributions/releases";

/** The first provider that cannot start without a `files` provider, if any. */
function needsFiles(doc: ConfigDoc): string | undefined {
  for (const [api, list] of Object.entries(doc.providers)) {
    for (const p of list ?? []) {
      if (
        (API_DEPENDENCIES[api] ?? []).includes("files") ||
        (PROVIDER_DEPENDENCIES[p.provider_type] ?? []).includes("files")
      ) {
        return `${api} provider ${effectiveId(p.provider_id)} (${p.provider_type})`;
      }
    }
  }
  return undefined;
}

/**
 * A base config with a provider that needs `files` but no `files` provider (upstream's
 * postgres-demo) stops the server at startup; add the one the bundled bases have, with its
 * files on the workload's storage and its metadata in sql_default.
 */
export function ensureFiles(doc: ConfigDoc, mountPath: string): string[] {
  if ((doc.providers.files ?? []).length > 0) return [];
  const needer = needsFiles(doc);
  const backends = isPlainObject(doc.storage) && isPlainObject(doc.storage.backends) ? doc.storage.backends : {};
  if (needer === undefined || !isPlainObject(backends[SQL_BACKEND])) return [];
  doc.providers.files = [
    {
      provider_id: "builtin-files",
      provider_type: "inline::localfs",
      config: {
        storage_dir: `${mountPath}/files`,
        metadata_store: { table_name: "files_metadata", backend: SQL_BACKEND },
      },
    },
  ];
  if (doc.apis && !doc.apis.includes("files")) doc.apis = [...doc.apis, "files"];
  return [
    `baseConfig.providers.files: the base config has none and the ${needer} needs one (the server would stop at startup); added builtin-files (inline::localfs) under ${mountPath}/files`,
  ];
}
