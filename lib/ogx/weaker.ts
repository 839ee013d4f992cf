/**
 * "Nothing weaker by surprise": what a conversion between LLSD and OGXServer would stop
 * enforcing. Each guard of the source (guards.ts) that the converted object lacks is a loss,
 * named at the source's field; `llsd convert` and `llsd migrate --from ogxserver` refuse a
 * conversion with losses unless given `--allow-weaker`, which prints them as warnings.
 */
import { fieldError, type FieldError } from "../errors";
import { llsdGuards, ogxGuards, type Guard } from "./guards";
import { sameJson } from "./json";
import { type JsonMap } from "../json";

export type Side = "LlamaStackDistribution" | "OGXServer";

/** Why the target lacks a guard, where that is one fact of its operator. */
const WHY: { readonly [side in Side]: { readonly [kind: string]: string } } = {
  OGXServer: {
    authentication: "the peer's server has no authentication settings",
    "serving TLS": "the peer's operator never serves TLS (network.tls is not read)",
    "TLS at the edge": "the peer's Ingress has no TLS (no Secret, no cert-manager issuer)",
    "the Gateway's check of the server's certificate": "the peer makes no HTTPRoute or BackendTLSPolicy",
    "an ingress peer (namespace)": "the OGXServer has no allowedFrom; write the peers as network.policy.ingress rules",
    "an ingress peer (namespace label)":
      "the OGXServer has no allowedFrom; write the peers as network.policy.ingress rules",
    "egress limited to the listed rules": "the peer applies egress rules only beside network.policy.ingress rules",
    "an egress rule": "the peer applies egress rules only beside network.policy.ingress rules",
    "a metrics scraper peer":
      "the peer lets only namespaces labelled network.openshift.io/policy-group: monitoring scrape",
    "ingress from the listed rules only":
      "the peer writes its default rules (same namespace, operator, router) when network.policy.ingress is empty",
  },
  LlamaStackDistribution: {
    "ingress from the listed rules only":
      "without networking.policy.defaultIngress: false, llsd-hooks adds these rules to its own (the same namespace, the hooks and allowedFrom) where the peer's replace its defaults",
  },
};

const describe = (guard: Guard): string =>
  guard.value === undefined ? guard.kind : `${guard.kind} ${JSON.stringify(guard.value)}`;

/** Each guard of `from` that `to` lacks, at its path in the source, with why the target lacks it. */
export function losses(from: readonly Guard[], to: readonly Guard[], target: Side): FieldError[] {
  const kept = (g: Guard): boolean => to.some((t) => t.kind === g.kind && sameJson(t.value, g.value));
  return from
    .filter((g) => !kept(g))
    .map((g) => {
      const why = WHY[target][g.kind];
      return fieldError(g.path, `${describe(g)}: the ${target} would not enforce it${why ? `; ${why}` : ""}`);
    });
}

/** What converting an LLSD spec (v1alpha2) to this OGXServer spec loses. */
export const lossesToOgx = (llsd: JsonMap, ogx: JsonMap): FieldError[] =>
  losses(llsdGuards(llsd), ogxGuards(ogx), "OGXServer");

/** What converting an OGXServer spec to this LLSD spec (v1alpha2) loses. */
export const lossesFromOgx = (ogx: JsonMap, llsd: JsonMap): FieldError[] =>
  losses(ogxGuards(ogx), llsdGuards(llsd), "LlamaStackDistribution");
