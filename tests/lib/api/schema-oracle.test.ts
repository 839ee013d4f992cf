/**
 * The JSON Schemas ajv compiles, frozen (issue 51): the schemas are declared with TypeBox, and
 * moving a declaration must not change a keyword. The golden file holds each schema in the form
 * the quick validator compiles (`withSharedDefs`: shared subschemas once, under `$defs`), so it
 * also catches a shared subschema that became a copy. Symbol keys (TypeBox's own marks) are not
 * JSON and are not compared; object keys are sorted, lists keep their order (`required`, `enum`).
 */
import { withSharedDefs } from "../../../lib/api/schema-defs";
import { V1ALPHA1_SPEC_SCHEMA, V1ALPHA1_STATUS_SCHEMA } from "../../../lib/api/schema-v1alpha1";
import { V1ALPHA2_SPEC_SCHEMA } from "../../../lib/api/schema-v1alpha2";
import { V1ALPHA2_STATUS_SCHEMA } from "../../../lib/api/schema-status-v1alpha2";
import { sortKeys } from "../../../lib/crd/schema-node";
import { expectGolden } from "../../golden";

const SCHEMAS = {
  v1alpha2Spec: V1ALPHA2_SPEC_SCHEMA,
  v1alpha2Status: V1ALPHA2_STATUS_SCHEMA,
  v1alpha1Spec: V1ALPHA1_SPEC_SCHEMA,
  v1alpha1Status: V1ALPHA1_STATUS_SCHEMA,
};

describe("the API's JSON Schemas", () => {
  it.each(Object.entries(SCHEMAS))("%s is the frozen one (tests/golden/api-schemas)", (name, schema) => {
    const json = JSON.parse(JSON.stringify(withSharedDefs(schema))) as { [keyword: string]: unknown };
    expectGolden(`api-schemas/${name}.json`, `${JSON.stringify(sortKeys(json), null, 1)}\n`);
  });
});
