/**
 * The part of the apiserver's own CEL library (k8s.io/apiserver/pkg/cel/library) that CRDs we
 * check use: the Kubernetes quantity functions (`quantity('10Gi').isGreaterThan(quantity('0'))`,
 * in the OGXServer CRD among others). @bufbuild/cel has no opaque values without protobuf
 * descriptors, so a Quantity is a one-entry map holding its exact value as `<integer>e<exponent>`
 * (base 10; binary suffixes are exact in it too). Comparisons are exact, as the apiserver's are.
 */
import { celFunc, celMap, celMethod, CelScalar, mapType, type CelMap } from "@bufbuild/cel";

const KEY = "k8s.io/quantity";
const QUANTITY = mapType(CelScalar.STRING, CelScalar.STRING);

const DECIMAL_SUFFIX: { readonly [suffix: string]: number } = {
  n: -9,
  u: -6,
  m: -3,
  "": 0,
  k: 3,
  M: 6,
  G: 9,
  T: 12,
  P: 15,
  E: 18,
};
const BINARY_SUFFIX: { readonly [suffix: string]: bigint } = { Ki: 10n, Mi: 20n, Gi: 30n, Ti: 40n, Pi: 50n, Ei: 60n };

/** An exact value: `digits × 10^exponent`. */
interface Exact {
  readonly digits: bigint;
  readonly exponent: number;
}

/** What a suffix does to `digits × 10^exponent`, or undefined when it is none of Kubernetes'. */
function applySuffix(exact: Exact, suffix: string): Exact | undefined {
  const binary = BINARY_SUFFIX[suffix];
  if (binary !== undefined) return { digits: exact.digits * 2n ** binary, exponent: exact.exponent };
  if (/^[eE][+-]?\d+$/.test(suffix))
    return { digits: exact.digits, exponent: exact.exponent + Number(suffix.slice(1)) };
  const decimal = Object.hasOwn(DECIMAL_SUFFIX, suffix) ? DECIMAL_SUFFIX[suffix] : undefined;
  return decimal === undefined ? undefined : { digits: exact.digits, exponent: exact.exponent + decimal };
}

/** A quantity string as Kubernetes' ParseQuantity reads it, or undefined when it is not one. */
export function parseQuantity(text: string): Exact | undefined {
  const match = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(.*)$/.exec(text);
  if (!match) return undefined;
  const [, sign = "", number = "", suffix = ""] = match;
  const [whole = "", fraction = ""] = number.split(".");
  return applySuffix({ digits: BigInt(`${sign}${whole}${fraction}`), exponent: -fraction.length }, suffix);
}

function quantityOf(text: string): CelMap {
  const exact = parseQuantity(text);
  if (!exact) throw new Error(`quantity(): "${text}" is not a Kubernetes quantity`);
  return celMap(new Map([[KEY, `${exact.digits}e${exact.exponent}`]]));
}

function exactOf(value: CelMap): Exact {
  const stored = value.get(KEY);
  const match = typeof stored === "string" ? /^(-?\d+)e(-?\d+)$/.exec(stored) : null;
  if (!match) throw new Error("not a quantity: build one with quantity('…')");
  return { digits: BigInt(match[1] ?? "0"), exponent: Number(match[2]) };
}

/** -1, 0 or 1, exactly. */
function compare(a: Exact, b: Exact): number {
  const low = Math.min(a.exponent, b.exponent);
  const left = a.digits * 10n ** BigInt(a.exponent - low);
  const right = b.digits * 10n ** BigInt(b.exponent - low);
  return left === right ? 0 : left > right ? 1 : -1;
}

const ZERO: Exact = { digits: 0n, exponent: 0 };

export const KUBERNETES_CEL = [
  celFunc("isQuantity", [CelScalar.STRING], CelScalar.BOOL, (text) => parseQuantity(text) !== undefined),
  celFunc("quantity", [CelScalar.STRING], QUANTITY, quantityOf),
  celMethod("sign", QUANTITY, [], CelScalar.INT, function (this: CelMap) {
    return BigInt(compare(exactOf(this), ZERO));
  }),
  celMethod("compareTo", QUANTITY, [QUANTITY], CelScalar.INT, function (this: CelMap, other) {
    return BigInt(compare(exactOf(this), exactOf(other)));
  }),
  celMethod("isGreaterThan", QUANTITY, [QUANTITY], CelScalar.BOOL, function (this: CelMap, other) {
    return compare(exactOf(this), exactOf(other)) > 0;
  }),
  celMethod("isLessThan", QUANTITY, [QUANTITY], CelScalar.BOOL, function (this: CelMap, other) {
    return compare(exactOf(this), exactOf(other)) < 0;
  }),
];
