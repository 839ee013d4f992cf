/**
 * The typed-provider table (lib/ogx/provider-table.ts) against the server's own config classes on
 * the 1.3 line (lib/config/provider-fields.generated.ts): each row's `provider:` name resolves to
 * its type, and every config key it writes is one the type reads.
 */
import { SERVER_API } from "../../lib/api/apis";
import { resolveProviderType } from "../../lib/config/provider-types";
import { TYPED_PROVIDERS } from "../../lib/ogx/provider-table";

const rows = TYPED_PROVIDERS.map((t) => [`${t.section}.${t.bucket}.${t.field}`, t] as const);

describe("the typed OGXServer providers", () => {
  it.each(rows)("%s: its name resolves to its type and its config keys are the type's", (_where, typed) => {
    const hasEndpoint = Object.values(typed.fields).includes("endpoint");
    const resolved = resolveProviderType(SERVER_API[typed.section], typed.name, hasEndpoint, "1.3");
    expect([resolved.type, resolved.error]).toEqual([typed.type, undefined]);
    const keys = Object.values(typed.fields).flatMap((place) =>
      place === "endpoint"
        ? [resolved.info.urlKey]
        : place === "apiKey"
          ? [resolved.info.keyField]
          : ["secret" in place ? place.secret : place.setting],
    );
    const unknown = keys.filter((key) => key === undefined || !Object.hasOwn(resolved.info.fields ?? {}, key));
    expect(unknown).toEqual([]);
  });
});
