/** What one registry session call needs besides the request: shared by the session and its token requests. */
import type { RegistryCredential } from "./auth";
import type { RequestContext } from "./http";

export interface SessionContext extends RequestContext {
  readonly baseUrl: string;
  /** The registry is on the operator's insecure list: then (only then) a plain-http token realm is accepted. */
  readonly insecure: boolean;
  readonly credential: RegistryCredential | undefined;
  /** credentialFingerprint(credential): token cache keys, never the secret itself. */
  readonly fingerprint: string;
}
