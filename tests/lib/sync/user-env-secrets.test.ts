/**
 * Secrets given in `workload.overrides.env` (the docs' way to set e.g. GEMINI_API_KEY): the
 * customize hook fetches them, and a value the server's substitution would misread is refused
 * like one the spec references, by Secret, key and field path, never by value.
 */
import { customize } from "../../../lib/sync/customize";
import { sync } from "../../../lib/sync/sync";
import type { SyncResponse } from "../../../lib/wire/metacontroller";
import { aParent, aRequest, aSecret, deps } from "../../sync-builders";

const spec = {
  distribution: { name: "starter" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
  resources: { models: ["llama3"] },
  workload: {
    overrides: {
      env: [
        { name: "PLAIN", value: "x" },
        { name: "GEMINI_API_KEY", valueFrom: { secretKeyRef: { name: "gemini", key: "api-key" } } },
      ],
    },
  },
};
type Cond = { type: string; status: string; reason: string; message: string };
const secrets = (r: SyncResponse) => (r.status.conditions as Cond[]).find((c) => c.type === "SecretsResolved")!;

describe("Secrets in workload.overrides.env", () => {
  it("are fetched by the customize hook", () => {
    const rules = customize({ parent: aParent(spec) }).relatedResources;
    expect(rules).toContainEqual(expect.objectContaining({ resource: "secrets", names: ["gemini"] }));
  });

  it.each([
    ["all digits", "1234567890", /all digits/],
    ["true", "true", /true or false/],
  ])(
    "given a value that is %s, SecretValueMisread naming the field, Secret and key, not the value",
    (_title, value, why) => {
      const r = sync(aRequest(aParent(spec), [], [aSecret("gemini", { "api-key": value })]), deps());
      const c = secrets(r);
      expect([c.status, c.reason]).toEqual(["False", "SecretValueMisread"]);
      expect(c.message).toMatch(
        /^spec\.workload\.overrides\.env\[1\]\.valueFrom\.secretKeyRef: the value of Secret gemini key "api-key"/,
      );
      expect(c.message).toMatch(why);
      expect(JSON.stringify(r.status)).not.toContain(value === "true" ? 'gemini key "api-key" true' : value);
    },
  );

  it.each([
    ["text", [aSecret("gemini", { "api-key": "AIza-abc123" })]],
    ["a Secret not there (the kubelet reports it)", []],
  ])("given %s, generates", (_title, related) => {
    const r = sync(aRequest(aParent(spec), [], related), deps());
    expect(r.status.phase).toBe("Pending");
  });
});
