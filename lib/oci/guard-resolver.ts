/** A base-config resolver behind the registry guard (ssrf.ts), apart from it so the client can use the guard without a cycle. */
import type { CredentialLookup } from "./auth";
import type { BaseConfigResolver } from "./cache";
import { toRegistryRef } from "./reference";
import type { RegistryGuard } from "./ssrf";

/**
 * `resolver` behind `guard`: a refused registry gets the resolver's own error shape (reason
 * `RegistryNotAllowed`, not transient; a failed lookup `RegistryUnavailable`, transient) and is
 * never contacted. Image references the resolver cannot parse go to it unchanged (it says why).
 */
export function guardResolver(resolver: BaseConfigResolver, guard: RegistryGuard): BaseConfigResolver {
  /** The refusal in the resolver's error shape, or undefined when the registry may be contacted. */
  async function refused(
    imageRef: string,
    what: string,
  ): Promise<{ kind: "error"; reason: string; message: string; transient: boolean } | undefined> {
    const ref = toRegistryRef(imageRef);
    if (!ref.ok) return undefined;
    const verdict = await guard.check(ref.value);
    if (verdict.ok) return undefined;
    const { reason, message, transient } = verdict.error;
    return { kind: "error", reason, message: `Cannot read ${what} of image "${imageRef}": ${message}`, transient };
  }
  const providerSpec = resolver.providerSpec?.bind(resolver);
  return {
    async resolve(imageRef, credentials) {
      return (await refused(imageRef, "the base config")) ?? resolver.resolve(imageRef, credentials);
    },
    ...(providerSpec
      ? {
          async providerSpec(imageRef: string, credentials?: CredentialLookup) {
            return (await refused(imageRef, "the provider metadata")) ?? providerSpec(imageRef, credentials);
          },
        }
      : {}),
  };
}
