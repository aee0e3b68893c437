import type { SessionAuthMethod } from './oauth-session.entity';

/** A first passkey needs a password sign-in within the last 5 minutes (docs/console.md); the account page's step-up asks the same. */
export const RECENT_SIGN_IN_MS = 5 * 60_000;

/**
 * The step-up of a user who has no passkey yet: a fresh sign-in (5 minutes, the injectable
 * clock) with the account's primary method: its password or, for an account created through an
 * upstream provider (which has none), that provider. A passkey sign-in never qualifies: a user
 * with a passkey confirms with it instead.
 */
export function isRecentPrimarySignIn(
  actor: { authMethod: SessionAuthMethod; signedInAt: Date },
  now: Date,
): boolean {
  const age = now.getTime() - actor.signedInAt.getTime();
  const primary = actor.authMethod === 'password' || actor.authMethod === 'upstream';
  return primary && age <= RECENT_SIGN_IN_MS;
}
