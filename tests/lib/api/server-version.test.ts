/**
 * OGX 1.0 and 1.1 images: generating a config for them is refused everywhere a spec is judged
 * (validate → /validate, llsd validate, render, /sync), with the versions that are served; the
 * image's own config and an override still run, and 1.2+ generates as before.
 */
import { validate } from "../../../lib/api/validate";
import { sync } from "../../../lib/sync/sync";
import { aParent, aRequest, deps } from "../../sync-builders";

const generating = (image: string) => ({
  distribution: { image },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" } },
  resources: { models: ["m"] },
});

describe("OGX 1.0 and 1.1 images", () => {
  it.each([
    "docker.io/ogxai/distribution-starter:1.1.0",
    "docker.io/ogx/distribution-starter:1.0.2",
    "quay.io/x/ogx:v1.1",
  ])("%s: generating is refused, naming the versions served", (image) => {
    const errors = validate(generating(image)).errors;
    expect(errors).toEqual([
      expect.objectContaining({
        path: "spec.distribution.image",
        message: expect.stringMatching(/generate configs for OGX 1\.2 and later, 0\.8\.x and 0\.7\.x/),
      }),
    ]);
    const r = sync(aRequest(aParent(generating(image))), deps());
    expect(r.status.phase).toBe("Failed");
    expect(JSON.stringify(r.status.conditions)).toContain("generate configs for OGX 1.2 and later");
    expect(r.children).toEqual([]);
  });

  it.each<[string, object]>([
    ["its own config", { distribution: { image: "docker.io/ogxai/distribution-starter:1.1.0" } }],
    [
      "an override",
      { distribution: { image: "docker.io/ogxai/distribution-starter:1.1.0" }, overrideConfig: { configMapName: "c" } },
    ],
    ["a 1.2 image generating", generating("docker.io/ogxai/distribution-starter:1.2.0")],
    ["a 0.8 image generating", generating("docker.io/ogx/distribution-starter:0.8.0")],
  ])("%s: accepted", (_title, spec) => {
    expect(validate(spec).errors.filter((e) => e.path === "spec.distribution.image")).toEqual([]);
  });
});
