/**
 * `npm run gen:crds`: writes the CRD that lib/crd derives from the lib/api schemas. The file is
 * committed; tests/crd fails when it differs from what this script would write.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CRD_FILE, crdYaml } from "../lib/crd/generate";

const target = join(__dirname, "..", CRD_FILE);
writeFileSync(target, crdYaml());
process.stdout.write(`wrote ${CRD_FILE}\n`);
