import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { s256 } from '../../../../common/crypto/opaque-token';
import { preparedQuery } from '../../../../database/prepared-query';
import { runBatchStatement } from '../../../../database/statement';
import type { EventsService } from '../../../events/events.service';
import type { TokensRepository } from '../../../tokens/tokens.repository';
import { OAuthError, invalidRequest } from '../../protocol/oauth-error';
import {
  clientKind,
  clientParam,
  type ClientKind,
  type RedeemingClient,
} from '../redeeming-client';
import type { MintedTokens } from '../token-issuer';
import { firstFailure } from '../rules/step';
import { EXCHANGE_STEPS, type ExchangeRow } from '../rules/registries';
import { CODE_VERIFIER } from '../rules/verify-pkce';
import {
  exchangeBatchStatement,
  exchangeStatement,
  type ExchangeInput,
} from './authorization-code-sql';
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

/** The consumed code and each step's outcome; `issued` when every step held. */
export interface ConsumedCode extends ExchangeRow {
  issued: boolean;
}

export interface Redemption {
  code: string;
  client: RedeemingClient;
  redirectUri: string;
  /** BASE64URL(SHA256(code_verifier)), or null when no verifier was sent. */
  verifierHash: string | null;
  tokens: MintedTokens;
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
  asPublicClient: (context, clientId, request) =>
    request.verifier === undefined
      ? Promise.resolve(null)
      : redeem(context, { publicClientId: clientId }, request),

  handle: async (context, client, request) => {
    if (client.clientAuthMethod === 'none' && request.verifier === undefined) {
      return invalidRequest('Public clients must send code_verifier');
    }
    const redeemed = await redeem(context, { id: client.id }, request);
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
): Promise<GrantOutcome | null> {
  const { batches, issuer, idTokens } = context;
  const tokens = issuer.mint();
  const verifierHash = verifier === undefined ? null : s256(verifier);
  const consumed = await batches.redeem({ code, client, redirectUri, tokens, verifierHash });
  if (!consumed) return null;
  if (consumed.issued) {
    // OIDC Core 3.1.3.3: an openid grant's exchange adds the id_token, with the code's nonce.
    return idTokens.attach(issuer.response(tokens, consumed.scope), {
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

const EXCHANGE = {
  authenticated: exchangeStatement('authenticated'),
  public: exchangeStatement('public'),
};

const EXCHANGE_BATCH = {
  authenticated: exchangeBatchStatement('authenticated'),
  public: exchangeBatchStatement('public'),
};

/** A redemption's values, by parameter name. */
function exchangeArgs(r: Redemption): Record<ExchangeInput, unknown> {
  return {
    codeHash: sha256Hex(r.code),
    now: r.tokens.now,
    client: clientParam(r.client),
    redirectUri: r.redirectUri,
    verifierHash: r.verifierHash,
    accessHash: r.tokens.accessHash,
    refreshHash: r.tokens.refreshHash,
    accessExpiresAt: r.tokens.accessExpiresAt,
    refreshExpiresAt: r.tokens.refreshExpiresAt,
    familyId: randomUUID(),
  };
}

/**
 * Redeems a code in ONE statement (atomic on its own, one round trip, prepared once per
 * connection): of concurrent redemptions exactly one sees the code unconsumed, the others wait
 * for its row lock and then find it spent. A public client that is unknown, not `none` or
 * disabled consumes nothing. Null: nothing was consumed (unknown or spent code, or an unusable
 * public client; the caller then authenticates the client to name the failure).
 */
export async function redeemCode(
  dataSource: DataSource,
  r: Redemption,
): Promise<ConsumedCode | null> {
  const kind = clientKind(r.client);
  const rows = await preparedQuery<ConsumedCode>(
    dataSource,
    `oauth_redeem_code_${kind}`,
    EXCHANGE[kind].text,
    EXCHANGE[kind].values(exchangeArgs(r)),
  );
  return rows[0] ?? null;
}

/**
 * Redeems several codes of one client kind in ONE statement (exchangeBatchStatement), each with
 * the answer redeemCode would have given it alone. The codes must be distinct. Rejects, having
 * changed nothing, if the statement fails (e.g. a deadlock with another instance's batch).
 */
export async function redeemCodes(
  dataSource: DataSource,
  kind: ClientKind,
  redemptions: readonly Redemption[],
): Promise<(ConsumedCode | null)[]> {
  return runBatchStatement<ConsumedCode, ExchangeInput>(
    dataSource,
    `oauth_redeem_codes_${kind}`,
    EXCHANGE_BATCH[kind],
    redemptions.map(exchangeArgs),
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
