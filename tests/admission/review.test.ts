/**
 * lib/admission/review.ts: the AdmissionReview wire shape and the admission decision for
 * LlamaStackDistributions (pure; the HTTP side is tests/hooks/validate.test.ts).
 */
import { admissionReviewShape, review, reviewResponse, type AdmissionRequest } from "../../lib/admission/review";

const LLSD_V1ALPHA2 = { group: "llamastack.io", version: "v1alpha2", kind: "LlamaStackDistribution" };

function anLlsd(spec: unknown, metadata: Record<string, unknown> = {}): { [k: string]: unknown } {
  return {
    apiVersion: "llamastack.io/v1alpha2",
    kind: "LlamaStackDistribution",
    metadata: { name: "demo", namespace: "team-a", ...metadata },
    spec,
  };
}

function aRequest(overrides: Partial<AdmissionRequest> = {}): AdmissionRequest {
  return {
    uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
    kind: LLSD_V1ALPHA2,
    operation: "CREATE",
    name: "demo",
    namespace: "team-a",
    object: anLlsd({ distribution: { name: "starter" } }),
    ...overrides,
  };
}

function aReview(request: unknown): unknown {
  return { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", request };
}

/** Two errors at once: an unknown distribution and an embedding model without a dimension. */
const TWO_ERRORS = {
  distribution: { name: "nope" },
  providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000/v1" } },
  resources: { models: [{ name: "embed", modelType: "embedding" }] },
};

describe("admissionReviewShape", () => {
  it("accepts an AdmissionReview v1 and returns its request", () => {
    const request = aRequest();
    expect(admissionReviewShape(aReview(request))).toEqual({ ok: true, request });
  });

  it.each([
    [undefined, "request body is required: an AdmissionReview"],
    [[], "request body must be an AdmissionReview object, got array"],
    [
      { apiVersion: "admission.k8s.io/v1beta1", kind: "AdmissionReview", request: {} },
      'apiVersion must be admission.k8s.io/v1, got "admission.k8s.io/v1beta1"',
    ],
    [
      { apiVersion: "admission.k8s.io/v1", kind: "ConversionReview" },
      'kind must be AdmissionReview, got "ConversionReview"',
    ],
    [aReview(undefined), "request is required: the AdmissionRequest {uid, kind, operation, object}"],
    [aReview("x"), "request must be an object, got string"],
    [aReview({ ...aRequest(), uid: "" }), "request.uid is required: a non-empty string"],
    [
      aReview({ ...aRequest(), kind: "LlamaStackDistribution" }),
      "request.kind must be {group, version, kind} with string values",
    ],
    [
      aReview({ ...aRequest(), operation: "PATCH" }),
      'request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"',
    ],
    [aReview({ ...aRequest(), object: undefined }), "request.object must be an object for CREATE, got nothing"],
    [
      aReview({ ...aRequest(), operation: "UPDATE", object: [1] }),
      "request.object must be an object for UPDATE, got array",
    ],
    [
      aReview({ ...aRequest(), operation: "UPDATE", oldObject: "x" }),
      "request.oldObject must be an object, got string",
    ],
    [aReview({ ...aRequest(), namespace: 3 }), "request.namespace must be a string, got number"],
  ])("refuses %j: %s", (body, error) => {
    expect(admissionReviewShape(body)).toEqual({ ok: false, error });
  });

  it("lets DELETE through without an object (the apiserver sends oldObject only)", () => {
    const { object: _o, ...rest } = aRequest({ operation: "DELETE" });
    expect(admissionReviewShape(aReview({ ...rest, oldObject: anLlsd({}) })).ok).toBe(true);
  });
});

describe("review", () => {
  it("allows a valid object and echoes the uid", () => {
    expect(review(aRequest())).toEqual({ uid: "705ab4f5-6393-11e8-b7cc-42010a800002", allowed: true });
  });

  it("denies an invalid object with every problem: one message, and a cause per field path", () => {
    const response = review(aRequest({ object: anLlsd(TWO_ERRORS) }));
    expect(response.allowed).toBe(false);
    expect(response.uid).toBe("705ab4f5-6393-11e8-b7cc-42010a800002");
    expect(response.status).toMatchObject({
      status: "Failure",
      code: 422,
      reason: "Invalid",
      details: { group: "llamastack.io", kind: "LlamaStackDistribution", name: "demo" },
    });
    const causes = response.status!.details.causes;
    expect(causes.map((c) => c.field)).toEqual([
      "spec.distribution.name",
      "spec.resources.models[0].embeddingDimension",
    ]);
    expect(causes.every((c) => c.type === "FieldValueInvalid" && c.message.length > 0)).toBe(true);
    expect(causes[0]!.message).toMatch(/Unknown distribution "nope". Available distributions: .*"starter"/);
    expect(response.status!.message).toBe(causes.map((c) => `${c.field}: ${c.message}`).join("; "));
  });

  it("reports schema errors of the whole object with their paths (unknown fields, wrong types, wrong shapes)", () => {
    const response = review(
      aRequest({ object: anLlsd({ distribution: { name: "starter" }, replicas: 2, networking: { port: "80" } }) }),
    );
    expect(response.allowed).toBe(false);
    expect(response.status!.details.causes.map((c) => `${c.field}: ${c.message}`)).toEqual(
      expect.arrayContaining([
        'spec: unknown field "replicas"; did you mean "workload.replicas"?',
        "spec.networking.port: must be integer",
      ]),
    );
  });

  it("checks the object's apiVersion and kind, not only its spec", () => {
    const object = { ...anLlsd({ distribution: { name: "starter" } }), apiVersion: "llamastack.io/v1alpha1" };
    expect(review(aRequest({ object })).status?.details.causes.map((c) => c.field)).toEqual(["apiVersion"]);
  });

  it("returns validate()'s warnings as admission warnings, one line each, when allowing and when denying", () => {
    const conflicting = {
      distribution: { name: "starter" },
      providers: { safety: { provider: "llama-guard" } },
      disabled: ["safety"],
    };
    const allowed = review(aRequest({ object: anLlsd(conflicting) }));
    expect(allowed.allowed).toBe(true);
    // The rule's warning, then generation's note on the same field.
    expect(allowed.warnings).toEqual([
      expect.stringMatching(
        /^spec\.disabled\[0\]: safety is disabled, so its providers \(spec\.providers\.safety\) are ignored/,
      ),
      'spec.disabled[0]: 1.3.x servers have no "safety" API; nothing to disable',
    ]);
    // An unknown distribution has no base config to generate against: the rule's warning alone.
    const denied = review(aRequest({ object: anLlsd({ ...conflicting, distribution: { name: "nope" } }) }));
    expect(denied.allowed).toBe(false);
    expect(denied.warnings).toEqual(allowed.warnings!.slice(0, 1));
    for (const w of denied.warnings ?? []) expect(w).not.toMatch(/\n/);
  });

  it.each(["DELETE", "CONNECT"] as const)("allows %s without looking at the object", (operation) => {
    expect(review(aRequest({ operation, object: anLlsd({ nonsense: true }) }))).toEqual({
      uid: aRequest().uid,
      allowed: true,
    });
  });

  it.each([
    ["another kind", { group: "", version: "v1", kind: "ConfigMap" }],
    [
      "another version (v1alpha1 arrives converted with matchPolicy Equivalent)",
      { ...LLSD_V1ALPHA2, version: "v1alpha1" },
    ],
    ["another group", { ...LLSD_V1ALPHA2, group: "example.com" }],
  ])("allows %s", (_what, kind) => {
    expect(review(aRequest({ kind, object: anLlsd({ nonsense: true }) })).allowed).toBe(true);
  });

  it("allows subresource writes (Metacontroller's status updates)", () => {
    expect(review(aRequest({ operation: "UPDATE", subResource: "status", object: anLlsd(TWO_ERRORS) })).allowed).toBe(
      true,
    );
  });

  it("allows an object that is being deleted (finalizer removal must never be blocked)", () => {
    const object = anLlsd(TWO_ERRORS, { deletionTimestamp: "2026-01-01T00:00:00Z" });
    expect(review(aRequest({ operation: "UPDATE", object, oldObject: object })).allowed).toBe(true);
  });

  /** The spec's problems, as warnings of an update that keeps the spec. */
  const KEPT_PROBLEMS = [
    expect.stringMatching(
      /^spec\.distribution\.name: Unknown distribution "nope".*\(spec unchanged, so this update is allowed\)$/,
    ),
    expect.stringMatching(
      /^spec\.resources\.models\[0\]\.embeddingDimension: .*\(spec unchanged, so this update is allowed\)$/,
    ),
  ];

  it.each([
    // Nothing the check reads changes: admitted unchecked (lib/admission/ratchet.ts), so no warnings.
    ["a label", { labels: { team: "a" } }, {}],
    ["an annotation the check does not read", { annotations: { "e2e-scale/touched": "1" } }, {}],
    ["a finalizer", { finalizers: ["example.com/keep"] }, {}],
    [
      "an annotation the check reads",
      { annotations: { "llamastack.io/follow-default-image": "false" } },
      { warnings: KEPT_PROBLEMS },
    ],
  ])("allows an UPDATE that adds %s to a CR with an invalid spec", (_what, metadata, warnings) => {
    const oldObject = anLlsd(TWO_ERRORS);
    const object = anLlsd(structuredClone(TWO_ERRORS), metadata);
    expect(review(aRequest({ operation: "UPDATE", object, oldObject }))).toEqual({
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      allowed: true,
      ...warnings,
    });
  });

  it("denies an UPDATE that changes the spec into an invalid one", () => {
    const oldObject = anLlsd({ distribution: { name: "starter" } });
    expect(review(aRequest({ operation: "UPDATE", object: anLlsd(TWO_ERRORS), oldObject })).allowed).toBe(false);
  });

  it("names the object from request.name when the object has none (generateName)", () => {
    const object = { ...anLlsd({ distribution: { name: "nope" } }), metadata: { generateName: "demo-" } };
    expect(review(aRequest({ object, name: "" })).status!.details).not.toHaveProperty("name");
    expect(review(aRequest({ object, name: "demo-x7" })).status!.details.name).toBe("demo-x7");
  });

  it("checks names against the distribution table it is given", () => {
    const distributions = [{ name: "mine", image: "registry.example.com/mine:1.0", release: "0.8" as const }];
    const object = anLlsd({ distribution: { name: "mine" } });
    expect(review(aRequest({ object })).allowed).toBe(false);
    expect(review(aRequest({ object }), { distributions }).allowed).toBe(true);
  });

  it("wraps the response in an AdmissionReview v1", () => {
    expect(reviewResponse({ uid: "u", allowed: true })).toEqual({
      apiVersion: "admission.k8s.io/v1",
      kind: "AdmissionReview",
      response: { uid: "u", allowed: true },
    });
  });
});

describe("review: what the CR's server line cannot serve", () => {
  const withSafety = {
    distribution: { name: "starter" },
    providers: { inference: { provider: "vllm", endpoint: "http://vllm:8000" }, safety: { provider: "llama-guard" } },
    resources: { shields: ["llama-guard"] },
  };
  /** The status the hooks wrote for a CR that runs starter on 0.7.1. */
  const runningOn071 = {
    distributionConfig: { activeDistribution: "starter" },
    resolvedDistribution: { image: "docker.io/llamastack/distribution-starter:0.7.1" },
  };

  it("denies a new CR that asks for the Safety API on the default 1.x line, naming each field and the alternative", () => {
    const response = review(aRequest({ object: anLlsd(withSafety) }));
    expect(response.allowed).toBe(false);
    expect(response.status!.details.causes.map((c) => c.field)).toEqual([
      "spec.providers.safety",
      "spec.resources.shields[0]",
    ]);
    expect(response.status!.message).toContain("the 1.3 server line has no Safety API (removed in OGX 1.0)");
    expect(response.status!.message).toContain("moderation_endpoint");
  });

  it.each([
    [
      "an image of a line that has it",
      { ...withSafety, distribution: { image: "docker.io/ogx/distribution-starter:0.8.0" } },
    ],
  ])("allows it on %s", (_what, spec) => {
    expect(review(aRequest({ object: anLlsd(spec) })).allowed).toBe(true);
  });

  it("allows an UPDATE of a CR that still runs its 0.7 server (the line comes from the old object's status)", () => {
    const oldObject = { ...anLlsd({ distribution: { name: "starter" } }), status: runningOn071 };
    expect(review(aRequest({ operation: "UPDATE", object: anLlsd(withSafety), oldObject })).allowed).toBe(true);
  });

  it("allows an UPDATE that only opts that CR into the current default, with what the new line refuses as warnings", () => {
    const annotations = { "llamastack.io/follow-default-image": "true" };
    const oldObject = { ...anLlsd(withSafety), status: runningOn071 };
    const object = { ...anLlsd(structuredClone(withSafety), { annotations }), status: runningOn071 };
    expect(review(aRequest({ operation: "UPDATE", object, oldObject }))).toEqual({
      uid: "705ab4f5-6393-11e8-b7cc-42010a800002",
      allowed: true,
      warnings: [
        expect.stringMatching(/^spec\.providers\.safety: .*\(spec unchanged, so this update is allowed\)$/),
        expect.stringMatching(/^spec\.resources\.shields\[0\]: .*\(spec unchanged, so this update is allowed\)$/),
        // Generation's notes for the new line.
        "spec.providers.inference.endpoint: remote::vllm expects the OpenAI API path; generated base_url with /v1 appended",
        expect.stringMatching(/^providers\.inference\.vllm: now always on; /),
      ],
    });
  });

  it("denies it when that CR opts into the current default, or switches its distribution name", () => {
    const oldObject = { ...anLlsd({ distribution: { name: "starter" } }), status: runningOn071 };
    const following = anLlsd(withSafety, { annotations: { "llamastack.io/follow-default-image": "true" } });
    expect(review(aRequest({ operation: "UPDATE", object: following, oldObject })).allowed).toBe(false);
    const renamed = anLlsd({ ...withSafety, distribution: { name: "postgres-demo" } });
    expect(review(aRequest({ operation: "UPDATE", object: renamed, oldObject })).allowed).toBe(false);
  });
});

describe("names the children get", () => {
  // The apiserver accepts CR names up to 253 characters; a child's name has tighter limits.
  it.each([
    ["a 55-character name", "a".repeat(55), true, ""],
    [
      "a 56-character name",
      "a".repeat(56),
      false,
      `metadata.name: "${"a".repeat(56)}" gives the Service "${"a".repeat(56)}-service" of 64 characters; a DNS-1035 label is at most 63. Use a name of at most 55 characters (the longest that fits every child)`,
    ],
    ["a name with a dot", "my.llsd", false, "is not a DNS-1035 label"],
    ["a name that starts with a digit", "1llsd", false, "is not a DNS-1035 label"],
  ])("%s: allowed = %s", (_what, name, allowed, message) => {
    const answer = review(aRequest({ name, object: anLlsd({ distribution: { name: "starter" } }, { name }) }));
    expect(answer.allowed).toBe(allowed);
    if (!allowed)
      expect(answer.status?.details?.causes).toEqual([
        {
          type: "FieldValueInvalid",
          field: "metadata.name",
          message: expect.stringContaining(message.replace(/^metadata.name: /, "")),
        },
      ]);
  });
});

describe("review: the conversion's annotation, which every v1alpha1 read of the CR restores", () => {
  const KEY = "llamastack.io/v1alpha1-fields";
  const FIELD = `metadata.annotations["${KEY}"]`;
  const VALID = { distribution: { name: "starter" } };
  const withAnnotation = (value: string, metadata: Record<string, unknown> = {}) =>
    anLlsd(structuredClone(VALID), { ...metadata, annotations: { [KEY]: value } });
  const causesOf = (response: ReturnType<typeof review>) =>
    response.status?.details.causes.map((c) => `${c.field}: ${c.message}`);

  it.each([
    ["not JSON", "{spec.server", /is not valid JSON; restore the value the conversion wrote, or remove the annotation/],
    ["a JSON array", "[]", /must be a JSON object of field path → value/],
    [
      "an entry outside spec and status",
      '{"metadata.name":"x"}',
      /entry "metadata.name" is not a field path under spec or status/,
    ],
  ])("denies a CREATE whose annotation is %s, at the annotation's path", (_what, value, message) => {
    const causes = causesOf(review(aRequest({ object: withAnnotation(value) })));
    expect(causes).toEqual([expect.stringMatching(new RegExp(`^${escape(FIELD)}: ${message.source}`))]);
  });

  it.each([
    ["{}", true],
    ['{"spec.server.containerSpec.name":"llama-stack"}', true],
    ["{not json", false],
  ])("a CREATE with the annotation %s: allowed %s", (value, allowed) => {
    expect(review(aRequest({ object: withAnnotation(value) })).allowed).toBe(allowed);
  });

  it.each([
    ["sets it", anLlsd(structuredClone(VALID))],
    ["changes it", withAnnotation("{}")],
  ])("denies an UPDATE that %s to a broken value, though the spec is unchanged", (_what, oldObject) => {
    const response = review(aRequest({ operation: "UPDATE", object: withAnnotation("{oops"), oldObject }));
    expect(response.allowed).toBe(false);
    expect(response.status?.details.causes.map((c) => c.field)).toEqual([FIELD]);
  });

  it("allows a label on a CR whose annotation was broken before, unchecked (lib/admission/ratchet.ts)", () => {
    const oldObject = withAnnotation("{oops");
    const object = withAnnotation("{oops", { labels: { team: "a" } });
    expect(review(aRequest({ operation: "UPDATE", object, oldObject }))).toEqual({
      uid: aRequest().uid,
      allowed: true,
    });
  });

  it("allows another annotation on a CR whose annotation was broken before, with the problem as a warning", () => {
    const oldObject = withAnnotation("{oops");
    const object = anLlsd(structuredClone(VALID), { annotations: { [KEY]: "{oops", "team/x": "1" } });
    expect(review(aRequest({ operation: "UPDATE", object, oldObject }))).toEqual({
      uid: aRequest().uid,
      allowed: true,
      warnings: [expect.stringMatching(/is not valid JSON.*\(annotation unchanged, so this update is allowed\)$/)],
    });
  });

  it("allows an UPDATE that repairs it", () => {
    const response = review(
      aRequest({ operation: "UPDATE", object: withAnnotation("{}"), oldObject: withAnnotation("{oops") }),
    );
    expect(response).toEqual({ uid: aRequest().uid, allowed: true });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
