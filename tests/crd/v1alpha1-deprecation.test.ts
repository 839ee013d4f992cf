/**
 * v1alpha1 on its way out (docs/upgrading.md#v1alpha1-on-its-way-out): the default CRD serves it
 * deprecated, with a warning the apiserver returns to every v1alpha1 request, and
 * metacontroller/crd-v1alpha2-only/ stops serving it while keeping it for stored objects.
 * The variant is built with the real `kubectl kustomize`, offline.
 */
import { execFileSync } from "node:child_process";
import { CustomResourceDefinition } from "kubernetes-models/apiextensions.k8s.io/v1/CustomResourceDefinition";
import { parse } from "yaml";
import { buildCrd, type Crd } from "../../lib/crd/generate";

const VARIANT_DIR = "metacontroller/crd-v1alpha2-only";
const crd = buildCrd();

function kustomize(dir: string): Crd {
  return parse(execFileSync("kubectl", ["kustomize", dir], { encoding: "utf8", maxBuffer: 64 << 20 })) as Crd;
}

function served(c: Crd): [string, boolean, boolean, boolean][] {
  return c.spec.versions.map((v) => [v.name, v.served, v.storage, v.deprecated === true]);
}

describe("the default CRD", () => {
  it("serves v1alpha1 deprecated and v1alpha2 not", () => {
    expect(served(crd)).toEqual([
      ["v1alpha1", true, false, true],
      ["v1alpha2", true, true, false],
    ]);
  });

  // The apiserver refuses a deprecationWarning over 256 characters or with control characters
  // (apiextensions validation); the text names the way out.
  it("warns in at most 256 printable ASCII characters, naming v1alpha2 and llsd migrate", () => {
    const warning = crd.spec.versions[0]!.deprecationWarning!;
    expect(warning.length).toBeLessThanOrEqual(256);
    expect(warning).toMatch(/^[\x20-\x7e]+$/);
    expect(warning).toContain("llamastack.io/v1alpha2");
    expect(warning).toContain("llsd migrate");
  });
});

describe("metacontroller/crd-v1alpha2-only", () => {
  const variant = kustomize(VARIANT_DIR);

  it("is the default CRD with v1alpha1 not served, and nothing else changed", () => {
    const versions = crd.spec.versions.map((v) => (v.name === "v1alpha1" ? { ...v, served: false } : v));
    expect(variant).toEqual({ ...crd, spec: { ...crd.spec, versions } });
  });

  it("keeps v1alpha1 in the CRD (stored objects still convert) and the conversion webhook", () => {
    expect(served(variant)).toEqual([
      ["v1alpha1", false, false, true],
      ["v1alpha2", true, true, false],
    ]);
    expect(variant.spec.conversion).toEqual(crd.spec.conversion);
  });

  it("is a CRD the apiextensions schema accepts", () => {
    expect(() => new CustomResourceDefinition(variant as never).validate()).not.toThrow();
  });
});
