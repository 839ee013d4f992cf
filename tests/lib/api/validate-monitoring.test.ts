/**
 * `spec.monitoring`'s checks as `/validate`, `llsd validate` and `/sync` run them (validate()
 * with and without the server line): a port of its own, namespace names, and a server that has
 * the endpoint (the 1.x line from OGX 1.2.0), refused elsewhere with the field path and the lines
 * that have it.
 */
import { validate } from "../../../lib/api/validate";
import type { LlsdSpecV1alpha2, MonitoringInput } from "../../../lib/api/v1alpha2";
import type { Release } from "../../../lib/distributions/table";

const named = (monitoring: MonitoringInput, rest: Partial<LlsdSpecV1alpha2> = {}): LlsdSpecV1alpha2 => ({
  distribution: { name: "starter" },
  monitoring,
  ...rest,
});
const imaged = (image: string, monitoring: MonitoringInput = {}): LlsdSpecV1alpha2 => ({
  distribution: { image },
  monitoring,
});

describe("the spec's own rules", () => {
  it.each<[string, LlsdSpecV1alpha2, { path: string; message: RegExp }[]]>([
    ["the default port", named({}), []],
    ["a port of its own beside a server port", named({ port: 9000 }, { networking: { port: 9001 } }), []],
    ["off, on the server's port", named({ enabled: false, port: 8321 }), []],
    [
      "the server's default port",
      named({ port: 8321 }),
      [{ path: "spec.monitoring.port", message: /8321 is the server's own port.*choose another/ }],
    ],
    [
      "the port the server listens on behind a low Service port",
      named({ port: 8321 }, { networking: { port: 80 } }),
      [{ path: "spec.monitoring.port", message: /own port/ }],
    ],
    ["scraper namespaces and `*`", named({ allowedFrom: { namespaces: ["monitoring", "*"] } }), []],
    [
      "a scraper namespace that is no namespace name",
      named({ allowedFrom: { namespaces: ["ok", "Prometheus_NS"] } }),
      [{ path: "spec.monitoring.allowedFrom.namespaces[1]", message: /"Prometheus_NS" is not a namespace name/ }],
    ],
  ])("%s", (_title, spec, expected) => {
    const errors = validate(spec).errors.map((e) => ({ path: e.path, message: e.message }));
    expect(errors).toEqual(expected.map((e) => ({ path: e.path, message: expect.stringMatching(e.message) })));
  });
});

describe("the server line", () => {
  const HAVE_IT = /the lines that have it: "1\.2", "1\.3" \(OGX 1\.2\.0 and later\)/;

  it.each<[string, LlsdSpecV1alpha2, Release]>([
    ["Llama Stack 0.7", named({}), "0.7"],
    ["OGX 0.8", named({}), "0.8"],
  ])("%s has no metrics endpoint: refused at spec.monitoring.enabled", (_title, spec, release) => {
    const errors = validate(spec, { release }).errors;
    expect(errors).toEqual([
      {
        path: "spec.monitoring.enabled",
        message: expect.stringMatching(
          new RegExp(`the ${release} server line has no metrics endpoint; ${HAVE_IT.source}`),
        ),
      },
    ]);
  });

  it.each([["docker.io/ogx/distribution-starter:1.0.2"], ["docker.io/ogxai/distribution-starter:1.1.0"]])(
    "%s runs on the 1.2 line (the nearest) but predates the endpoint: refused",
    (image) => {
      const errors = validate(imaged(image), { release: "1.2" }).errors.filter((e) =>
        e.path.startsWith("spec.monitoring"),
      );
      expect(errors).toEqual([{ path: "spec.monitoring.enabled", message: expect.stringMatching(HAVE_IT) }]);
    },
  );

  it.each<[string, LlsdSpecV1alpha2, Release]>([
    ["OGX 1.2.0", imaged("docker.io/ogxai/distribution-starter:1.2.0"), "1.2"],
    ["OGX 1.3.0 by name", named({}), "1.3"],
    ["monitoring off on 0.8", named({ enabled: false }), "0.8"],
    ["no monitoring on 0.7", { distribution: { name: "starter" } }, "0.7"],
  ])("%s: accepted", (_title, spec, release) => {
    expect(validate(spec, { release }).errors.filter((e) => e.path.startsWith("spec.monitoring"))).toEqual([]);
  });
});
