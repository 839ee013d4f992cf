/**
 * A caller the spec admits, read from the config's own rules (server.auth.route_policy and
 * access_policy, the server's syntax): the attributes that the first rule permitting
 * `GET /v1/models` asks for with `user with <value> in <attribute>`.
 */
import { isPlainObject } from "../../lib/json";

export type Attributes = { [attribute: string]: string[] };

type Rule = { readonly [k: string]: unknown };

const asList = (v: unknown): unknown[] => (Array.isArray(v) ? v : v === undefined ? [] : [v]);

/** `paths` of a route rule matches `path`: `*`, the path itself, or a prefix ending in `*`. */
function covers(rule: Rule, path: string): boolean {
  const permit = rule.permit;
  if (!isPlainObject(permit)) return false;
  return asList(permit.paths).some(
    (p) => p === "*" || p === path || (typeof p === "string" && p.endsWith("*") && path.startsWith(p.slice(0, -1))),
  );
}

/** An access rule that lets a caller read a resource (no `actions` means every action). */
function permitsRead(rule: Rule): boolean {
  const permit = rule.permit;
  if (!isPlainObject(permit)) return false;
  return permit.actions === undefined || asList(permit.actions).includes("read");
}

/** The attributes a rule's `when` conditions require; undefined when a condition needs more than attributes. */
function required(rule: Rule): Attributes | undefined {
  const attributes: Attributes = {};
  for (const condition of asList(rule.when)) {
    const text = String(condition).trim();
    const m = /^user with (\S+) in (\S+)$/.exec(text);
    if (m) (attributes[m[2]!] ??= []).push(m[1]!);
    else if (!/^(resource is unowned|user is owner|user with \S+ not in \S+)$/.test(text)) return undefined;
  }
  return attributes;
}

function merge(a: Attributes, b: Attributes): Attributes {
  const out: Attributes = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = [...(out[k] ?? []), ...v];
  return out;
}

/** The attributes of a caller admitted to `path` (reading what it lists), or the reason none can be made from the rules. */
export function admittedAttributes(auth: { readonly [k: string]: unknown }, path = "/v1/models"): Attributes | string {
  const routes = asList(auth.route_policy).filter(isPlainObject);
  const access = asList(auth.access_policy).filter(isPlainObject);
  const route =
    routes.length === 0
      ? {}
      : routes
          .filter((r) => covers(r, path))
          .map(required)
          .find((a) => a !== undefined);
  if (route === undefined) return `no route_policy rule admits ${path} with attributes alone`;
  const read =
    access.length === 0
      ? {}
      : access
          .filter(permitsRead)
          .map(required)
          .find((a) => a !== undefined);
  if (read === undefined) return "no access_policy rule permits read with attributes alone";
  return merge(route, read);
}
