/**
 * An overrideConfig is mounted as is, so a file written for another line keeps what that line
 * had: on 1.x the Safety API, `server.cors`/`quota`, `responses.persistence.agent_state`,
 * removed provider types. The server ignores some of these silently and
 * refuses others; the hooks adapt their own configs (lib/config/dialect.ts) but never the
 * user's, so each difference is said in the status, naming the key.
 */
import { adaptBase } from "./dialect";
import type { ConfigDoc } from "./doc";
import { editable } from "./base";
import type { Release } from "../distributions/table";

export function overrideLineNotes(configMapName: string, doc: ConfigDoc, release: Release): string[] {
  // On a private copy: adapting is only used to find what differs. The older prompts and
  // connectors stores are the one difference the server migrates by itself.
  const differences = adaptBase(editable(doc), release).filter((note) => !note.startsWith("baseConfig.storage.stores"));
  return differences.map(
    (note) =>
      `ConfigMap ${configMapName} (mounted as is) is not in the ${release} line's shape, where ` +
      `${note.replace(/^baseConfig[.:]? ?/, "").replace(/; adapted$/, "")}: change it in the ConfigMap (the hooks adapt only the configs they generate)`,
  );
}
