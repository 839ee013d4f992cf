/**
 * The `provider:` names each API section accepts on each server line, and the type each becomes:
 * the table of docs/spec-reference.md ("Provider names"; tests/docs/provider-names.test.ts fails
 * when the doc and this differ). Every cell is what `resolveProviderType` answers, the function
 * the checks and generation call, so the table cannot promise what the code refuses.
 */
import { PROVIDER_APIS, SERVER_API, type ProviderApi } from "../api/apis";
import { RELEASES, type Release } from "../distributions/table";
import { registeredNames } from "./provider-fields";
import { RENAMED_TYPES, resolveProviderType } from "./provider-types";

/** Sections with provider types (telemetry takes any name: it becomes OTel env). */
const SECTIONS = PROVIDER_APIS.filter((s): s is Exclude<ProviderApi, "telemetry"> => s !== "telemetry");

export interface ProviderNameRow {
  readonly section: ProviderApi;
  readonly name: string;
  /** Per line, in RELEASES order: what the name becomes there, `—` when it is refused. */
  readonly cells: readonly string[];
}

/** `remote` / `inline` for `<prefix>::<name>`, the whole type for a renamed one. */
function typeShown(name: string, type: string): string {
  const prefix = type.slice(0, type.indexOf("::"));
  return type === `${prefix}::${name}` ? prefix : `\`${type}\``;
}

function cell(section: ProviderApi, name: string, release: Release): string {
  const plain = resolveProviderType(SERVER_API[section], name, false, release);
  const withEndpoint = resolveProviderType(SERVER_API[section], name, true, release);
  if (plain.error !== undefined && withEndpoint.error !== undefined) return "—";
  if (plain.error !== undefined) return `with \`endpoint\`: ${typeShown(name, withEndpoint.type)}`;
  if (withEndpoint.error !== undefined || withEndpoint.type === plain.type) return typeShown(name, plain.type);
  return `${typeShown(name, plain.type)}; with \`endpoint\`: ${typeShown(name, withEndpoint.type)}`;
}

/** Every name some line registers for the section, and the old names, sorted; rows no line accepts are left out. */
export function providerNameRows(): ProviderNameRow[] {
  return SECTIONS.flatMap((section) => {
    const registered = RELEASES.flatMap((r) => registeredNames(SERVER_API[section], r));
    const names = [...new Set([...registered, ...Object.keys(RENAMED_TYPES)])].sort();
    return names
      .map((name) => ({ section, name, cells: RELEASES.map((r) => cell(section, name, r)) }))
      .filter((row) => row.cells.some((c) => c !== "—"));
  });
}

/** The Markdown table: section, name, then one column per server line. */
export function providerNamesTable(): string {
  const header = ["section", "`provider:`", ...RELEASES.map((r) => `${r}.x`)];
  const rows = providerNameRows().map((r) => [r.section, `\`${r.name}\``, ...r.cells]);
  return [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n") + "\n";
}
