/** The refusals of `storage.kv` with `type: postgres`: each with its field path and the fix. */
import { validate } from "../../../lib/api/validate";

const spec = (kv: object) => ({ distribution: { name: "starter" }, storage: { kv } });
const dsn = { name: "pg", key: "dsn" };

describe("storage.kv type postgres", () => {
  it.each<[string, object, { path: string; message: string }[]]>([
    ["with its DSN: valid", { type: "postgres", connectionString: dsn }, []],
    [
      "without a connectionString",
      { type: "postgres" },
      [
        {
          path: "spec.storage.kv.connectionString",
          message: "required for type postgres: a Secret key holding postgresql://user:password@host:port/db",
        },
      ],
    ],
    [
      "with a Redis endpoint",
      { type: "postgres", connectionString: dsn, endpoint: "redis:6379" },
      [
        {
          path: "spec.storage.kv",
          message: "endpoint and password are only used with type: redis; set type: redis or remove them",
        },
      ],
    ],
    [
      "a connectionString on a redis store",
      { type: "redis", endpoint: "redis:6379", connectionString: dsn },
      [
        {
          path: "spec.storage.kv",
          message: "connectionString is only used with type: postgres; set type: postgres or remove it",
        },
      ],
    ],
    [
      "a connectionString on sqlite",
      { type: "sqlite", connectionString: dsn },
      [
        {
          path: "spec.storage.kv",
          message: "connectionString is only used with type: postgres; set type: postgres or remove it",
        },
      ],
    ],
  ])("%s", (_t, kv, errors) => {
    expect(validate(spec(kv)).errors).toEqual(errors);
  });
});
