import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { EventsService } from '../../events/events.service';
import { TokensRepository } from '../../tokens/tokens.repository';
import { IdTokenService } from './id-token.service';
import { OAuthError, invalidRequest } from '../protocol/oauth-error';
import { s256 } from '../../../common/crypto/opaque-token';
import {
  publicCodeRequest,
  publicRefreshRequest,
  type PublicCodeRequest,
} from './public-client-request';
import { revokeReplayedCode } from './grants/authorization-code';
import type { RedeemingClient } from './redeeming-client';
import { lockRefreshToken, type RotatedGrant } from './grants/refresh-token';
import { refreshScope } from '../protocol/scopes';
import { authenticateClient, type OAuthClient } from './rules/authenticate-client';
import { nonEmptyParam, type Params } from '../protocol/params';
import { CODE_VERIFIER } from './rules/verify-pkce';
import { TokenBatches } from './token-batches';
import { MintedTokens, TokenIssuer, TokenResponse } from './token-issuer';
import { firstFailure } from './rules/step';
import { EXCHANGE_STEPS, REFRESH_STEPS } from './rules/registries';

type Outcome = TokenResponse | OAuthError;
type StepByStepRefresh = {
  response: TokenResponse;
  grant: { userId: string; applicationId: number; codeId: string | null };
};
type CodeRequest = Omit<PublicCodeRequest, 'clientId' | 'verifier'> & { verifier?: string };

/**
 * POST /api/oauth2/token (spec section 4.2; RFC 6749 sections 4.1.3 and 6). A successful exchange
 * or refresh is one SQL statement assembled from the steps in rules/registries.ts; when it issues
 * nothing, the first step that did not hold names the failure (docs/oauth.md, "Token endpoint").
 */
@Injectable()
export class TokenService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issuer: TokenIssuer,
    private readonly events: EventsService,
    private readonly tokens: TokensRepository,
    private readonly clock: Clock,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly idTokens: IdTokenService,
    private readonly batches: TokenBatches,
  ) {}

  async token(body: Params, authorization: string | undefined): Promise<TokenResponse> {
    const grantType = nonEmptyParam(body, 'grant_type');
    if (grantType === undefined) throw invalidRequest('grant_type is required');
    const outcome =
      (await this.publicClient(grantType, body, authorization)) ??
      (await this.authenticated(grantType, body, authorization));
    // Failures are returned, not thrown, so that spending the code or revoking a family is
    // committed before the error goes out.
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  /**
   * A well-formed request of a public client: its client check is part of the one statement.
   * Null when the request does not qualify or the statement changed nothing (unknown, confidential
   * or disabled client, spent code, failing refresh): the general path then names the failure.
   */
  private async publicClient(
    grantType: string,
    body: Params,
    authorization: string | undefined,
  ): Promise<Outcome | null> {
    if (grantType === 'authorization_code') {
      const request = publicCodeRequest(body, authorization);
      return request && this.redeem({ publicClientId: request.clientId }, request);
    }
    if (grantType !== 'refresh_token') return null;
    const request = publicRefreshRequest(body, authorization);
    if (request === null) return null;
    const tokens = this.issuer.mint();
    const client = { publicClientId: request.clientId };
    const reuseSeconds = this.config.refreshTokenReuseSeconds;
    const rotation = { ...request, client, tokens, reuseSeconds };
    const rotated = await this.batches.rotate(rotation);
    return rotated === null ? null : this.refreshed(tokens, rotated);
  }

  private async authenticated(
    grantType: string,
    body: Params,
    authorization: string | undefined,
  ): Promise<Outcome> {
    const client = await authenticateClient(authorization, body, this.dataSource);
    if (grantType === 'authorization_code') return this.exchangeCode(client, body);
    if (grantType === 'refresh_token') return this.refresh(client, body);
    throw new OAuthError(
      'unsupported_grant_type',
      'grant_type must be authorization_code or refresh_token',
    );
  }

  private async exchangeCode(client: OAuthClient, body: Params): Promise<Outcome> {
    const code = nonEmptyParam(body, 'code');
    const redirectUri = nonEmptyParam(body, 'redirect_uri');
    const verifier = nonEmptyParam(body, 'code_verifier');
    if (code === undefined) throw invalidRequest('code is required');
    if (redirectUri === undefined) throw invalidRequest('redirect_uri is required');
    if (verifier !== undefined && !CODE_VERIFIER.test(verifier)) {
      throw invalidRequest('code_verifier must be 43 to 128 unreserved characters');
    }
    if (client.clientAuthMethod === 'none' && verifier === undefined) {
      throw invalidRequest('Public clients must send code_verifier');
    }
    const redeemed = await this.redeem({ id: client.id }, { code, redirectUri, verifier });
    if (redeemed) return redeemed;
    await this.dataSource.transaction((manager) =>
      revokeReplayedCode(manager, code, this.clock.now(), this.tokens, this.events),
    );
    return new OAuthError(
      'invalid_grant',
      'The authorization code is invalid, expired or already used',
    );
  }

  /** Consumes the code and issues tokens if every binding holds; null if nothing was consumed. */
  private async redeem(client: RedeemingClient, request: CodeRequest): Promise<Outcome | null> {
    const { code, redirectUri, verifier } = request;
    const tokens = this.issuer.mint();
    const verifierHash = verifier === undefined ? null : s256(verifier);
    const consumed = await this.batches.redeem({
      code,
      client,
      redirectUri,
      tokens,
      verifierHash,
    });
    if (!consumed) return null;
    if (consumed.issued) {
      // OIDC Core 3.1.3.3: an openid grant's exchange adds the id_token, with the code's nonce.
      return this.idTokens.attach(this.issuer.response(tokens, consumed.scope), {
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

  private async refresh(client: OAuthClient, body: Params): Promise<Outcome> {
    const refreshToken = nonEmptyParam(body, 'refresh_token');
    const requested = nonEmptyParam(body, 'scope');
    if (refreshToken === undefined) throw invalidRequest('refresh_token is required');
    const scope = refreshScope(requested);
    const tokens = this.issuer.mint();
    const reuseSeconds = this.config.refreshTokenReuseSeconds;
    const rotation = { refreshToken, client: { id: client.id }, scope, tokens, reuseSeconds };
    const rotated = await this.batches.rotate(rotation);
    if (rotated !== null) return this.refreshed(tokens, rotated);
    const outcome = await this.refreshStepByStep(client, refreshToken, scope);
    if (outcome instanceof OAuthError) return outcome;
    return this.idTokens.attach(outcome.response, { ...outcome.grant, withNonce: false });
  }

  /** OIDC Core 12.2: a refreshed openid grant gets a fresh id_token, without the nonce. */
  private refreshed(tokens: MintedTokens, rotated: RotatedGrant): Promise<TokenResponse> {
    return this.idTokens.attach(this.issuer.response(tokens, rotated.scope), {
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
  private refreshStepByStep(
    client: OAuthClient,
    refreshToken: string,
    requested: string | null,
  ): Promise<StepByStepRefresh | OAuthError> {
    return this.dataSource.transaction(async (manager): Promise<StepByStepRefresh | OAuthError> => {
      const now = this.clock.now();
      const token = await lockRefreshToken(manager, {
        refreshToken,
        clientId: client.id,
        now,
        scope: requested,
        reuseSeconds: this.config.refreshTokenReuseSeconds,
      });
      if (!token) return new OAuthError('invalid_grant', 'The refresh token is invalid');
      const failure = await firstFailure(REFRESH_STEPS, token, {
        revokeFamily: async () => {
          const revoked = await this.tokens.revokeFamily(manager, token.family_id, now);
          if (revoked === 0) return;
          await this.events.record(manager, {
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
      };
      const response = await this.issuer.issue(manager, grant, 'token_refreshed');
      return { response, grant };
    });
  }
}
