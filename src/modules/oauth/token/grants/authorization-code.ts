import type { EntityManager } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { s256 } from '../../../../common/crypto/opaque-token';
import type { EventsService } from '../../../events/events.service';
import type { TokensRepository } from '../../../tokens/tokens.repository';
import { OAuthError, invalidRequest } from '../../protocol/oauth-error';
import type { RedeemingClient } from '../redeeming-client';
import { tokenBinding, type TokenBinding } from '../token-binding';
import { firstFailure } from '../rules/step';
import { EXCHANGE_STEPS } from '../rules/registries';
import { CODE_VERIFIER } from '../rules/verify-pkce';
import type { GrantContext, GrantOutcome, GrantType } from './grant-type';

// grant_type=authorization_code (RFC 6749 section 4.1.3, RFC 7636 section 4.5): its parameters,
// its typed request and its handler; the statements it runs are in authorization-code-sql.ts.

/** The parameters of the code exchange, in the order their problems are named. */
export const AUTHORIZATION_CODE_PARAMETERS = ['code', 'redirect_uri', 'code_verifier'] as const;
type Parameter = (typeof AUTHORIZATION_CODE_PARAMETERS)[number];

export interface AuthorizationCodeRequest {
  code: string;
  redirectUri: string;
  /** Well-formed when present (RFC 7636 section 4.1); a `none` client must send one. */
  verifier: string | undefined;
}

export const authorizationCodeGrant: GrantType<Parameter, AuthorizationCodeRequest> = {
  parameters: AUTHORIZATION_CODE_PARAMETERS,

  request: ({ code, redirect_uri: redirectUri, code_verifier: verifier }) => {
    if (code === undefined) return invalidRequest('code is required');
    if (redirectUri === undefined) return invalidRequest('redirect_uri is required');
    if (verifier !== undefined && !CODE_VERIFIER.test(verifier)) {
      return invalidRequest('code_verifier must be 43 to 128 unreserved characters');
    }
    return { code, redirectUri, verifier };
  },

  // A public client without a verifier is refused by handle(), after client authentication.
  asPublicClient: (context, clientId, request, jkt) =>
    request.verifier === undefined
      ? Promise.resolve(null)
      : redeem(context, { publicClientId: clientId }, request, tokenBinding(jkt, true)),

  handle: async (context, client, request, jkt) => {
    const publicClient = client.clientAuthMethod === 'none';
    if (publicClient && request.verifier === undefined) {
      return invalidRequest('Public clients must send code_verifier');
    }
    const binding = tokenBinding(jkt, publicClient);
    const redeemed = await redeem(context, { id: client.id }, request, binding);
    if (redeemed) return redeemed;
    const { dataSource, clock, tokens, events } = context;
    await dataSource.transaction((manager) =>
      revokeReplayedCode(manager, request.code, clock.now(), tokens, events),
    );
    return new OAuthError(
      'invalid_grant',
      'The authorization code is invalid, expired or already used',
    );
  },
};

/** Consumes the code and issues tokens if every binding holds; null if nothing was consumed. */
async function redeem(
  context: GrantContext,
  client: RedeemingClient,
  { code, redirectUri, verifier }: AuthorizationCodeRequest,
  binding: TokenBinding,
): Promise<GrantOutcome | null> {
  const { batches, issuer, idTokens } = context;
  const tokens = issuer.mint();
  const verifierHash = verifier === undefined ? null : s256(verifier);
  const redemption = { code, client, redirectUri, tokens, verifierHash, ...binding };
  const consumed = await batches.redeem(redemption);
  if (!consumed) return null;
  if (consumed.issued) {
    // OIDC Core 3.1.3.3: an openid grant's exchange adds the id_token, with the code's nonce.
    return idTokens.attach(issuer.response(tokens, consumed.scope, binding.jkt), {
      userId: String(consumed.user_id),
      applicationId: consumed.application_id,
      codeId: String(consumed.id),
      withNonce: true,
    });
  }
  // Nothing was issued: name the step that failed (the code is spent either way).
  return (
    (await firstFailure(EXCHANGE_STEPS, consumed, { verifier })) ??
    new OAuthError('server_error', 'The code could not be redeemed')
  );
}

/**
 * A code presented again after it was consumed (RFC 6749 section 4.1.2): every token issued from
 * it is revoked. Runs after the winning redemption committed (its row lock was waited for).
 */
export async function revokeReplayedCode(
  manager: EntityManager,
  code: string,
  now: Date,
  tokens: TokensRepository,
  events: EventsService,
): Promise<void> {
  const spent = await manager.query<
    { id: string; application_id: number; user_id: string; scope: string }[]
  >('SELECT id, application_id, user_id, scope FROM oauth_codes WHERE code_hash = $1', [
    sha256Hex(code),
  ]);
  const row = spent[0];
  if (!row) return;
  const revoked = await tokens.revokeIssuedFromCode(manager, String(row.id), now);
  if (revoked === 0) return;
  await events.record(manager, {
    applicationId: row.application_id,
    userId: String(row.user_id),
    eventType: 'token_revoked',
    scope: row.scope,
    description: `authorization code reused: ${revoked} token(s) revoked`,
  });
}
