/**
 * The Kubernetes quantity library in CRD rules (lib/crd/kubernetes-cel.ts), on the cases of the
 * apiserver's own library tests (k8s.io/apiserver/pkg/cel/library/quantity_test.go): exact
 * comparisons across suffixes, signs, and which strings are quantities.
 */
import { evaluate } from "../../lib/crd/check";

const run = (rule: string): boolean | Error => evaluate({ rule, message: "m" }, { type: "object" }, {});

describe("the Kubernetes quantity library", () => {
  it.each([
    "quantity('1Gi').compareTo(quantity('1073741824')) == 0",
    "quantity('1.5').compareTo(quantity('1500m')) == 0",
    "quantity('1E').compareTo(quantity('1e18')) == 0",
    "quantity('1Ki').compareTo(quantity('1.024k')) == 0",
    "quantity('1k').isGreaterThan(quantity('999'))",
    "quantity('100n').isLessThan(quantity('1u'))",
    "!quantity('0').isGreaterThan(quantity('0'))",
    "quantity('10Gi').isGreaterThan(quantity('0'))",
    "quantity('-1').sign() == -1 && quantity('0').sign() == 0 && quantity('+.5').sign() == 1",
    "quantity('-1Mi').isLessThan(quantity('-1M'))",
    "isQuantity('.5') && isQuantity('-2e3') && isQuantity('7Ti')",
    "!isQuantity('10Gb') && !isQuantity('1.2.3') && !isQuantity('') && !isQuantity('Gi')",
  ])("%s", (rule) => {
    expect(run(rule)).toBe(true);
  });

  it.each(["quantity('ten') == quantity('10')", "quantity('1x').sign() == 1"])("%s is an error", (rule) => {
    const result = run(rule);
    expect(result).toBeInstanceOf(Error);
    expect(String(result)).toContain("is not a Kubernetes quantity");
  });
});
