import { customizeRequestShape, syncRequestShape } from "../../hooks/request-shape";
import { aParent, aSyncBody } from "./helpers";

/** A parent as the cases below break it: any of these fields removed or replaced. */
interface BreakableParent {
  apiVersion?: unknown;
  kind?: unknown;
  metadata?: { name?: unknown; namespace?: unknown };
  spec?: unknown;
}

/** A sync body whose parent was changed by `edit`. */
function withParent(edit: (parent: BreakableParent) => void): Record<string, unknown> {
  const parent = aParent() as BreakableParent;
  edit(parent);
  return aSyncBody({ parent });
}

/** A sync body observing one Service, `team-a/llsd`, as `object`. */
const withService = (object: unknown): Record<string, unknown> =>
  aSyncBody({ children: { "Service.v1": { "team-a/llsd": object } } });

/** A sync body relating one Secret, `team-a/x`, as `object`. */
const withSecret = (object: unknown): Record<string, unknown> =>
  aSyncBody({ related: { "Secret.v1": { "team-a/x": object } } });

describe("syncRequestShape()", () => {
  it("given a well-formed v2 request, returns it unchanged", () => {
    const body = aSyncBody();
    expect(syncRequestShape(body)).toEqual({ ok: true, request: body });
  });

  it("given v1 keying (name only) and no related, accepts it", () => {
    const configMap = { apiVersion: "v1", kind: "ConfigMap", metadata: { name: "llsd-config" } };
    const body = aSyncBody({ children: { "ConfigMap.v1": { "llsd-config": configMap } } });
    delete body.related;

    expect(syncRequestShape(body).ok).toBe(true);
  });

  it("given null children and related (a nil Go map), hands them on as absent", () => {
    const result = syncRequestShape(aSyncBody({ children: null, related: null }));

    expect(result.ok && Object.keys(result.request)).toEqual(["controller", "parent", "finalizing"]);
  });

  const byKind = "must be an object keyed by Kind.apiVersion";
  it.each<{ given: string; body: unknown; error: string }>([
    { given: "an array", body: [aSyncBody()], error: "request body must be a JSON object, got array" },
    { given: "a string", body: "sync", error: "request body must be a JSON object, got string" },
    { given: "null", body: null, error: "request body must be a JSON object, got null" },
    { given: "no body", body: undefined, error: "request body is required: a JSON object" },
    { given: "no parent", body: aSyncBody({ parent: undefined }), error: "parent is required" },
    { given: "a parent that is a list", body: aSyncBody({ parent: [] }), error: "parent must be an object, got array" },
    { given: "no apiVersion", body: withParent((p) => delete p.apiVersion), error: "parent.apiVersion is required" },
    {
      given: "a numeric kind",
      body: withParent((p) => (p.kind = 7)),
      error: "parent.kind must be a string, got number",
    },
    { given: "no metadata", body: withParent((p) => delete p.metadata), error: "parent.metadata is required" },
    { given: "no name", body: withParent((p) => delete p.metadata!.name), error: "parent.metadata.name is required" },
    {
      given: "no namespace",
      body: withParent((p) => delete p.metadata!.namespace),
      error: "parent.metadata.namespace is required",
    },
    {
      given: "an empty namespace",
      body: withParent((p) => (p.metadata!.namespace = "")),
      error: "parent.metadata.namespace is required",
    },
    { given: "no spec", body: withParent((p) => delete p.spec), error: "parent.spec is required" },
    {
      given: "a string spec",
      body: withParent((p) => (p.spec = "starter")),
      error: "parent.spec must be an object, got string",
    },
    { given: "children as a list", body: aSyncBody({ children: [] }), error: `children ${byKind}, got array` },
    { given: "children as a string", body: aSyncBody({ children: "none" }), error: `children ${byKind}, got string` },
    {
      given: "one kind's children as a list",
      body: aSyncBody({ children: { "Deployment.apps/v1": [] } }),
      error: 'children["Deployment.apps/v1"] must be an object, got array',
    },
    {
      given: "a child that is not an object",
      body: withService(true),
      error: 'children["Service.v1"]["team-a/llsd"] must be an object, got boolean',
    },
    {
      given: "a child without kind",
      body: withService({ apiVersion: "v1", metadata: { name: "llsd" } }),
      error: 'children["Service.v1"]["team-a/llsd"].kind is required',
    },
    { given: "related as a number", body: aSyncBody({ related: 1 }), error: `related ${byKind}, got number` },
    {
      given: "a related object without a name",
      body: withSecret({ apiVersion: "v1", kind: "Secret", metadata: {} }),
      error: 'related["Secret.v1"]["team-a/x"].metadata.name is required',
    },
    {
      given: "finalizing as a string",
      body: aSyncBody({ finalizing: "false" }),
      error: "finalizing must be a boolean, got string",
    },
  ])("given $given, says $error", ({ body, error }) => {
    expect(syncRequestShape(body)).toEqual({ ok: false, error });
  });
});

describe("customizeRequestShape()", () => {
  it("given a parent, returns the request", () => {
    const body = { controller: {}, parent: aParent() };
    expect(customizeRequestShape(body)).toEqual({ ok: true, request: body });
  });

  it.each<{ given: string; body: unknown; error: string }>([
    { given: "an array", body: [], error: "request body must be a JSON object, got array" },
    { given: "no parent", body: { controller: {} }, error: "parent is required" },
    {
      given: "no namespace",
      body: { parent: { ...aParent(), metadata: { name: "llsd" } } },
      error: "parent.metadata.namespace is required",
    },
  ])("given $given, says $error", ({ body, error }) => {
    expect(customizeRequestShape(body)).toEqual({ ok: false, error });
  });
});
