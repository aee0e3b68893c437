import type { EntityManager } from 'typeorm';
import type { Application } from '../../../applications/application.entity';
import { AppUser } from '../../../users/app-user.entity';
import type { User } from '../../../users/user.entity';
import { OAuthError } from '../../protocol/oauth-error';
import { scopeCovers } from '../../protocol/scopes';

export type AccessDecision =
  | { kind: 'grant'; relation: AppUser | null }
  | { kind: 'consent'; relation: AppUser | null }
  /**
   * missingUpstreams: denied only for lack of a required upstream binding; unverifiedEmail: only
   * for lack of the verified email the application requires (both can be offered to the user).
   */
  | { kind: 'denied'; error: OAuthError; missingUpstreams?: string[]; unverifiedEmail?: true };

/**
 * May this signed-in user authorize this application for these scopes, and is consent still
 * needed? docs/contract/oauth.md#authorization-response: a disabled relation or a full user quota is access_denied; an
 * unverified email where the app requires one needs interaction; no (or a revoked, or a
 * narrower) earlier grant needs consent. `lock` takes row locks for the granting transaction.
 */
export async function checkUserAccess(
  manager: EntityManager,
  application: Application,
  user: User,
  scope: string,
  lock = false,
): Promise<AccessDecision> {
  // Re-checked here: the application may have been disabled while the user was on a page.
  if (!application.enabled) return denied('access_denied', 'The application is disabled');
  const relation = await manager.getRepository(AppUser).findOne({
    where: { applicationId: application.id, userId: user.id },
    ...(lock ? { lock: { mode: 'pessimistic_write' as const } } : {}),
  });
  if (relation && !relation.enabled) {
    return denied('access_denied', 'Your access to this application is disabled');
  }
  if (
    !relation &&
    application.userQuota !== null &&
    (await quotaFull(manager, application, lock))
  ) {
    return denied('access_denied', 'The application has reached its user quota');
  }
  if (application.requireVerifiedEmail && !user.emailVerified) {
    const error = 'The application requires a verified email address';
    return {
      kind: 'denied',
      error: new OAuthError('interaction_required', error),
      unverifiedEmail: true,
    };
  }
  if (!(await hasRequiredUpstream(manager, application, user))) {
    const required = application.requiredUpstreams.join(', ');
    return {
      kind: 'denied',
      error: new OAuthError(
        'interaction_required',
        `The application requires a bound account of one of: ${required}`,
      ),
      missingUpstreams: application.requiredUpstreams,
    };
  }
  return relation && scopeCovers(relation.grantedScope, scope)
    ? { kind: 'grant', relation }
    : { kind: 'consent', relation };
}

/** One of the application's required upstream providers is bound (docs/upstreams.md). */
async function hasRequiredUpstream(
  manager: EntityManager,
  application: Application,
  user: User,
): Promise<boolean> {
  const required = application.requiredUpstreams ?? [];
  if (required.length === 0) return true;
  const rows = await manager.query<unknown[]>(
    'SELECT 1 FROM upstream_identities WHERE user_id = $1 AND provider_id = ANY($2) LIMIT 1',
    [user.id, required],
  );
  return rows.length > 0;
}

async function quotaFull(
  manager: EntityManager,
  application: Application,
  lock: boolean,
): Promise<boolean> {
  // Serialises first authorizations of one application, so the quota cannot be overshot.
  if (lock) {
    await manager.query('SELECT 1 FROM applications WHERE id = $1 FOR UPDATE', [application.id]);
  }
  const count = await manager.getRepository(AppUser).countBy({ applicationId: application.id });
  return count >= (application.userQuota ?? Infinity);
}

function denied(
  error: 'access_denied' | 'interaction_required',
  description: string,
): AccessDecision {
  return { kind: 'denied', error: new OAuthError(error, description) };
}
