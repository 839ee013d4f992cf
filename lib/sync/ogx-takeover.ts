/**
 * Takeover of a running OGXServer's children (docs/migrating-from-ogxserver.md). The OGX operator's
 * Deployment selects `app: ogx`; a Deployment's selector is immutable, so the one observed here
 * says, on every sync and for as long as it exists, that its pods must keep that selector (and
 * the Service, NetworkPolicy, PDB and spread rules with it). No mark is needed: the selector
 * itself is the sticky part. A CR whose Deployment the hooks created selects `app: llama-stack`
 * and gets exactly the children it always got.
 */
import { OGX_APP } from "../names";
import type { Observed } from "../status/observed";

/** True when the observed Deployment selects the OGX operator's pods. */
export function ogxTakenOver(observed: Observed): boolean {
  return observed.deployment?.selector.app === OGX_APP;
}

export function ogxTakeoverNote(name: string): string {
  return `takeover: Deployment ${name} keeps the OGX operator's selector app=${OGX_APP} (immutable), and so do the Service, NetworkPolicy and PodDisruptionBudget; the pods keep its container name ${OGX_APP}. To move to the hooks' own labels (app=llama-stack), delete the Deployment: the next sync creates it anew (the pods restart)`;
}
