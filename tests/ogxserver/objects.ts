/** The OGXServer objects of objects.yaml (written for these tests, none copied from the peer). */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parseAllDocuments } from "yaml";
import { isPlainObject, type JsonMap } from "../../lib/json";

export function ogxObjects(): { name: string; object: JsonMap }[] {
  const text = readFileSync(join(__dirname, "objects.yaml"), "utf8");
  return parseAllDocuments(text).flatMap((doc) => {
    const object: unknown = doc.toJS();
    if (!isPlainObject(object) || !isPlainObject(object.metadata)) return [];
    return [{ name: String(object.metadata.name), object }];
  });
}
