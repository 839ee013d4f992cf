/**
 * The ajv both server-schema checkers compile the server's models with. Pydantic exports two
 * formats JSON Schema does not define: `password` (SecretStr) and `path` (pathlib.Path), both any
 * string to the server. Declared here, so ajv neither ignores them with a warning per schema nor
 * checks them more strictly than the server does.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";

export function pydanticAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat("password", true);
  ajv.addFormat("path", true);
  return ajv;
}
