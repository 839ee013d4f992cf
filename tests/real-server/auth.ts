/**
 * Who may call, per auth provider type of 1.3 (server.auth.provider_config.type): the headers of a
 * caller the spec admits and of callers that must get 401. The identity behind them is set up on
 * the fake upstream: a JWKS for oauth2_token, an introspection endpoint, a SelfSubjectReview.
 */
import { isPlainObject } from "../../lib/json";
import { text } from "./expect";
import { newSigner, timeClaims } from "./jwt";
import { admittedAttributes, type Attributes } from "./policy";
import type { UpstreamState } from "./upstream";

export type Headers = { readonly [name: string]: string };

export interface AuthPlan {
  readonly type: string;
  readonly admitted: Headers;
  readonly refused: readonly { readonly what: string; readonly headers: Headers }[];
}

type Map_ = { readonly [k: string]: unknown };

// The server's default claims mappings (ogx/core/datatypes.py at v1.3.0), used when the config sets none.
const OAUTH2_CLAIMS = {
  sub: "roles",
  username: "roles",
  groups: "teams",
  team: "teams",
  project: "projects",
  tenant: "namespaces",
  namespace: "namespaces",
};
const KUBERNETES_CLAIMS = { username: "roles", groups: "roles" };
// OAuth2TokenAuthConfig.audience's default on 1.x.
const DEFAULT_AUDIENCE = "ogx";

/** Claims that the mapping turns into `attributes`; the reason when an attribute has no claim. */
function claimsFor(attributes: Attributes, mapping: Map_): { [claim: string]: string[] } | string {
  const claims: { [claim: string]: string[] } = {};
  for (const [attribute, values] of Object.entries(attributes)) {
    // A list-valued claim where there is one (the username claim holds a single string).
    const claim = Object.keys(mapping)
      .filter((c) => mapping[c] === attribute)
      .sort((a, b) => Number(a === "username" || a === "sub") - Number(b === "username" || b === "sub"))[0];
    if (claim === undefined) return `no claim maps to the attribute "${attribute}" the policy asks for`;
    claims[claim] = values;
  }
  return claims;
}

const bearer = (token: string): Headers => ({ authorization: `Bearer ${token}` });
const pathOf = (url: unknown): string => new URL(text(url)).pathname;

function oauth2(p: Map_, attributes: Attributes, state: UpstreamState): AuthPlan | string {
  const claims = claimsFor(attributes, isPlainObject(p.claims_mapping) ? p.claims_mapping : OAUTH2_CLAIMS);
  if (typeof claims === "string") return claims;
  const standard = { sub: "test-user", aud: p.audience ?? DEFAULT_AUDIENCE, ...(p.issuer ? { iss: p.issuer } : {}) };
  const all = { ...standard, ...timeClaims(), ...claims };
  if (isPlainObject(p.introspection)) {
    state.introspection = { path: pathOf(p.introspection.url), claims: new Map([["opaque-admitted", all]]) };
    return {
      type: "oauth2_token (introspection)",
      admitted: bearer("opaque-admitted"),
      refused: [{ what: "an inactive token", headers: bearer("opaque-unknown") }],
    };
  }
  if (!isPlainObject(p.jwks)) return "oauth2_token without jwks or introspection";
  const signer = newSigner("llsd-test");
  state.jwks = { path: pathOf(p.jwks.uri), body: signer.jwks };
  const refused = [
    { what: "a token signed by another key", headers: bearer(newSigner("llsd-test").mint(all)) },
    { what: "an expired token", headers: bearer(signer.mint({ ...all, exp: Math.floor(Date.now() / 1000) - 60 })) },
    { what: "a token for another audience", headers: bearer(signer.mint({ ...all, aud: "someone-else" })) },
  ];
  return { type: "oauth2_token (jwks)", admitted: bearer(signer.mint(all)), refused };
}

function kubernetes(p: Map_, attributes: Attributes, state: UpstreamState): AuthPlan | string {
  const claims = claimsFor(attributes, isPlainObject(p.claims_mapping) ? p.claims_mapping : KUBERNETES_CLAIMS);
  if (typeof claims === "string") return claims;
  const { username, ...lists } = claims;
  const userInfo = { username: username?.[0] ?? "system:serviceaccount:test:client", ...lists };
  state.kubeUsers = new Map([["sa-token-admitted", userInfo]]);
  return {
    type: "kubernetes",
    admitted: bearer("sa-token-admitted"),
    refused: [{ what: "a token the apiserver does not know", headers: bearer("sa-token-unknown") }],
  };
}

function upstreamHeader(p: Map_, attributes: Attributes): AuthPlan | string {
  const principal = text(p.principal_header);
  if (!principal) return "upstream_header without principal_header";
  const headers: { [k: string]: string } = { [principal.toLowerCase()]: "test-user" };
  if (typeof p.attributes_header === "string") headers[p.attributes_header.toLowerCase()] = JSON.stringify(attributes);
  else if (Object.keys(attributes).length > 0)
    return "the policy asks for attributes and no attributes_header carries them";
  return { type: "upstream_header", admitted: headers, refused: [] };
}

/** The auth plan of a config with server.auth; a reason when this tier cannot act the identity out. */
export function planAuth(auth: Map_, state: UpstreamState): AuthPlan | string {
  const p = isPlainObject(auth.provider_config) ? auth.provider_config : {};
  const attributes = admittedAttributes(auth);
  if (typeof attributes === "string") return attributes;
  if (p.type === "oauth2_token") return oauth2(p, attributes, state);
  if (p.type === "kubernetes") return kubernetes(p, attributes, state);
  if (p.type === "upstream_header") return upstreamHeader(p, attributes);
  return `auth type ${text(p.type, "(none)")} has no stand-in here (it calls a service this tier does not fake)`;
}
