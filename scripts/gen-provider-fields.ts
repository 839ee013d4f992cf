/**
 * `npm run gen:provider-fields`: writes lib/config/provider-fields.generated.ts and
 * lib/config/provider-shapes.generated.ts from the server schemas in
 * tests/fixtures/server-schemas. Both are committed; a test fails when one differs from what
 * this script would write.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { providerFieldsModule, TARGET } from "./provider-fields";
import { providerShapesModule, SHAPES_TARGET } from "./provider-shapes";

writeFileSync(join(__dirname, "..", TARGET), providerFieldsModule());
process.stdout.write(`wrote ${TARGET}\n`);
writeFileSync(join(__dirname, "..", SHAPES_TARGET), providerShapesModule());
process.stdout.write(`wrote ${SHAPES_TARGET}\n`);
