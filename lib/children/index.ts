/**
 * Every child a parent should have, built from one ChildContext. The list is the complete
 * desired set (an omitted child is a deleted child) and deterministic: sorted by kind, then name.
 */
import type { V1ObjectMeta } from "@kubernetes/client-node";
import type { KubeObject } from "../wire/metacontroller";
import { buildBackendTlsPolicy } from "./backend-tls-policy";
import { buildCaBundle } from "./ca-bundle";
import { buildConfigMap } from "./config-map";
import type { ChildContext } from "./context";
import { buildDeployment } from "./deployment";
import { buildHpa } from "./hpa";
import { buildHttpRoute } from "./http-route";
import { buildIngress } from "./ingress";
import { buildNetworkPolicy } from "./network-policy";
import { buildPdb } from "./pdb";
import { buildPostgresSecret } from "./postgres-secret";
import { buildPvc } from "./pvc";
import { buildRoute } from "./route";
import { buildService } from "./service";
import { buildServiceMonitor } from "./service-monitor";

export type { CaBundleMount, ChildContext, LegacyProfile, MountedConfig } from "./context";

/** What every builder returns: a client-node object (or our Route, HTTPRoute, BackendTLSPolicy), whose type fields are optional. */
interface BuiltChild {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: V1ObjectMeta;
}

const BUILDERS: readonly ((ctx: ChildContext) => BuiltChild | undefined)[] = [
  buildBackendTlsPolicy,
  buildCaBundle,
  buildConfigMap,
  buildDeployment,
  buildHpa,
  buildHttpRoute,
  buildIngress,
  buildNetworkPolicy,
  buildPdb,
  buildPostgresSecret,
  buildPvc,
  buildRoute,
  buildService,
  buildServiceMonitor,
];

/** The client types make apiVersion, kind and name optional; a child without them is our bug. */
function toKubeObject(child: BuiltChild): KubeObject {
  const { apiVersion, kind, metadata } = child;
  if (!apiVersion || !kind || !metadata?.name) {
    throw new Error(
      `child builder returned an object without apiVersion, kind or metadata.name: ${kind ?? "?"}/${metadata?.name ?? "?"}`,
    );
  }
  return { ...child, apiVersion, kind, metadata: { ...metadata, name: metadata.name } };
}

/** Plain code-unit order, not localeCompare: the same on every machine and Node version. */
function byKindThenName(a: KubeObject, b: KubeObject): number {
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  const na = a.metadata.name;
  const nb = b.metadata.name;
  return na < nb ? -1 : na > nb ? 1 : 0;
}

export function desiredChildren(ctx: ChildContext): KubeObject[] {
  const children: KubeObject[] = [];
  for (const build of BUILDERS) {
    const child = build(ctx);
    if (child !== undefined) children.push(toKubeObject(child));
  }
  return children.sort(byKindThenName);
}
