/** Names of everything the hooks create for a parent, in one place (style rule 3). */

/** Derived Secret holding the discrete parts of the user's Postgres DSN. */
export function postgresSecretName(parent: string): string {
  return `${parent}-postgres`;
}
