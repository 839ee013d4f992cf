/**
 * `npm run gen:provider-fields`: writes lib/config/provider-fields.generated.ts from the server
 * schemas in tests/fixtures/server-schemas. The file is committed; a test fails when it differs
 * from what this script would write.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { providerFieldsModule, TARGET } from "./provider-fields";

writeFileSync(join(__dirname, "..", TARGET), providerFieldsModule());
process.stdout.write(`wrote ${TARGET}\n`);
