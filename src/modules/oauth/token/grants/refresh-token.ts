import type { EntityManager } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { OAuthError, invalidRequest } from '../../protocol/oauth-error';
import { refreshScope } from '../../protocol/scopes';
import type { OAuthClient } from '../../client-auth/authenticate-client';
import type { MintedTokens, TokenResponse } from '../token-issuer';
import { tokenBinding, type TokenBinding } from '../token-binding';
import { reuseSince } from '../rules/check-refresh-token';
import { firstFailure } from '../rules/step';
import { REFRESH_STEPS, type RefreshRow } from '../rules/registries';
import { LOCK_STATEMENT, type RotatedGrant } from './refresh-token-sql';
import type { GrantContext, GrantOutcome, GrantType } from './grant-type';

// grant_type=refresh_token (RFC 6749 section 6, RFC 9700 section 4.14.2): its parameters, its
// typed request and its handler; the statements it runs are in refresh-token-sql.ts.

/** The parameters of a refresh, in the order their problems are named. */
export const REFRESH_TOKEN_PARAMETERS = ['refresh_token', 'scope'] as const;
type Parameter = (typeof REFRESH_TOKEN_PARAMETERS)[number];

export interface RefreshTokenRequest {
  refreshToken: string;
  /** The requested scope in canonical form, or null to keep the token's (protocol/scopes.ts). */
  scope: string | null;
}

type StepByStepRefresh = {
  response: TokenResponse;
  grant: { userId: string; applicationId: number; codeId: string | null };
};

export const refreshTokenGrant: GrantType<Parameter, RefreshTokenRequest> = {
  parameters: REFRESH_TOKEN_PARAMETERS,

  request: ({ refresh_token: refreshToken, scope }) => {
    if (refreshToken === undefined) return invalidRequest('refresh_token is required');
    return { refreshToken, scope: refreshScope(scope) };
  },

  asPublicClient: async (context, clientId, request, jkt) => {
    const tokens = context.issuer.mint();
    const client = { publicClientId: clientId };
    const binding = tokenBinding(jkt, true);
    const rotation = { ...request, ...binding, client, tokens, reuseSeconds: context.reuseSeconds };
    const rotated = await context.batches.rotate(rotation);
    return rotated === null ? null : refreshed(context, tokens, rotated, binding);
  },

  handle: async (context, client, request, jkt) => {
    const tokens = context.issuer.mint();
    const binding = tokenBinding(jkt, client.clientAuthMethod === 'none');
    const rotation = { ...request, ...binding, client: { id: client.id }, tokens };
    const rotated = await context.batches.rotate({
      ...rotation,
      reuseSeconds: context.reuseSeconds,
    });
    if (rotated !== null) return refreshed(context, tokens, rotated, binding);
    const outcome = await refreshStepByStep(context, client, request, binding);
    if (outcome instanceof OAuthError) return outcome;
    return context.idTokens.attach(outcome.response, { ...outcome.grant, withNonce: false });
  },
};

/** OIDC Core 12.2: a refreshed openid grant gets a fresh id_token, without the nonce. */
function refreshed(
  context: GrantContext,
  tokens: MintedTokens,
  rotated: RotatedGrant,
  binding: TokenBinding,
): Promise<GrantOutcome> {
  return context.idTokens.attach(context.issuer.response(tokens, rotated.scope, binding.jkt), {
    userId: String(rotated.user_id),
    applicationId: rotated.application_id,
    codeId: rotated.code_id === null ? null : String(rotated.code_id),
    withNonce: false,
  });
}

/**
 * The refresh in steps, in a transaction: locks the token, names the first step that does not
 * hold (a replay revokes the family, RFC 9700 section 4.14.2). Issues tokens if the state
 * changed so that every step now holds.
 */
function refreshStepByStep(
  context: GrantContext,
  client: OAuthClient,
  { refreshToken, scope: requested }: RefreshTokenRequest,
  binding: TokenBinding,
): Promise<StepByStepRefresh | OAuthError> {
  const { dataSource, clock, tokens, events, issuer, reuseSeconds } = context;
  return dataSource.transaction(async (manager): Promise<StepByStepRefresh | OAuthError> => {
    const now = clock.now();
    const lock = {
      refreshToken,
      clientId: client.id,
      now,
      scope: requested,
      reuseSeconds,
      jkt: binding.jkt,
    };
    const token = await lockRefreshToken(manager, lock);
    if (!token) return new OAuthError('invalid_grant', 'The refresh token is invalid');
    const failure = await firstFailure(REFRESH_STEPS, token, {
      revokeFamily: async () => {
        const revoked = await tokens.revokeFamily(manager, token.family_id, now);
        if (revoked === 0) return;
        await events.record(manager, {
          applicationId: token.application_id,
          userId: String(token.user_id),
          eventType: 'token_revoked',
          scope: token.scope,
          description: `refresh token reused: ${revoked} token(s) of the family revoked`,
        });
      },
    });
    if (failure) return failure;
    const grant = {
      applicationId: client.id,
      userId: String(token.user_id),
      scope: requested ?? token.scope,
      familyId: token.family_id,
      codeId: token.code_id === null ? null : String(token.code_id),
      parentId: String(token.id),
      generation: token.generation + 1,
      binding,
    };
    const response = await issuer.issue(manager, grant, 'token_refreshed');
    return { response, grant };
  });
}

/** Finds and locks the presented refresh token for the step-by-step refresh; null if unknown. */
export async function lockRefreshToken(
  manager: EntityManager,
  r: {
    refreshToken: string;
    clientId: number;
    now: Date;
    scope: string | null;
    reuseSeconds: number;
    jkt: string | null;
  },
): Promise<RefreshRow | null> {
  const values = LOCK_STATEMENT.values({
    refreshHash: sha256Hex(r.refreshToken),
    now: r.now,
    client: r.clientId,
    scope: r.scope,
    reuseSince: reuseSince(r.now, r.reuseSeconds),
    jkt: r.jkt,
  });
  const rows = await manager.query<RefreshRow[]>(LOCK_STATEMENT.text, values);
  return rows[0] ?? null;
}
