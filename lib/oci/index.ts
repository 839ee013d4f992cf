/** The base-config resolver and what callers need around it. See README.md. */
export {
  createBaseConfigResolver,
  RESOLVER_DEFAULTS,
  type BaseConfigResolver,
  type BaseConfigResolverOptions,
  type ResolvedBase,
  type ResolvedProviderSpec,
} from "./cache";
export type { ImageReadKind, ImageReadObserver, ImageReadResult } from "./image-cache";
export { credentialLookup, parseDockerConfigJson, type CredentialLookup, type RegistryCredential } from "./auth";
export { MISSING_CONFIG_LABELS_MESSAGE, MISSING_CONFIG_LABELS_REASON, type LabelKind } from "./labels";
export { createRegistryClient, type RegistryClient, type RegistryClientOptions } from "./client";
export { DEFAULT_LIMITS, DEFAULT_PLATFORM, REASON, type Limits, type Platform } from "./types";
export { createRegistryGuard, type RegistryGuard, type RegistryGuardOptions } from "./ssrf";
export { guardResolver } from "./guard-resolver";
export { PROVIDER_SPEC_PATH, PROVIDER_SPEC_WHITEOUTS, DEFAULT_MAX_PROVIDER_LAYERS } from "./provider-metadata";
