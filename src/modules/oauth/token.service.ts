import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../common/clock';
import { EventsService } from '../events/events.service';
import { OAuthError, invalidRequest } from './oauth-error';
import { formatScope, parseScope, scopeCovers } from './scopes';
import { authenticateClient, type OAuthClient } from './steps/authenticate-client';
import { checkCodeBinding } from './steps/check-code-binding';
import { checkRelation } from './steps/check-relation';
import { redeemCode, revokeReplayedCode } from './steps/consume-code';
import { s256 } from './opaque-token';
import { nonEmptyParam, type Params } from './steps/params';
import {
  publicCodeRequest,
  publicRefreshRequest,
  type PublicCodeRequest,
} from './steps/public-client-request';
import type { RedeemingClient } from './steps/redeeming-client';
import { lockRefreshToken, rotateRefreshToken } from './steps/rotate-refresh-token';
import { CODE_VERIFIER, verifyPkce } from './steps/verify-pkce';
import { TokenIssuer, TokenResponse } from './token-issuer';

type Outcome = TokenResponse | OAuthError;
type CodeRequest = Omit<PublicCodeRequest, 'clientId' | 'verifier'> & { verifier?: string };

/**
 * POST /api/oauth2/token (spec section 4.2; RFC 6749 sections 4.1.3 and 6). A successful exchange
 * or refresh is one SQL statement; every failure then takes the step-by-step path that names it
 * (docs/performance-oauth.md).
 */
@Injectable()
export class TokenService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issuer: TokenIssuer,
    private readonly events: EventsService,
    private readonly clock: Clock,
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
    const scope = await rotateRefreshToken(this.dataSource, { ...request, client, tokens });
    return scope === null ? null : this.issuer.response(tokens, scope);
  }

  private async authenticated(
    grantType: string,
    body: Params,
    authorization: string | undefined,
  ): Promise<Outcome> {
    const client = await authenticateClient(authorization, body, this.dataSource.manager);
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
      revokeReplayedCode(manager, code, this.clock.now(), this.events),
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
    const consumed = await redeemCode(this.dataSource, {
      code,
      client,
      redirectUri,
      tokens,
      verifierHash,
    });
    if (!consumed) return null;
    if (consumed.issued) return this.issuer.response(tokens, consumed.scope);
    // Nothing was issued: name the binding that failed (the code is spent either way).
    return (
      checkCodeBinding(consumed, { id: consumed.clientApplicationId }, redirectUri, tokens.now) ??
      verifyPkce(consumed.codeChallenge, verifier) ??
      checkRelation(consumed) ??
      new OAuthError('server_error', 'The code could not be redeemed')
    );
  }

  private async refresh(client: OAuthClient, body: Params): Promise<Outcome> {
    const refreshToken = nonEmptyParam(body, 'refresh_token');
    const requested = nonEmptyParam(body, 'scope');
    if (refreshToken === undefined) throw invalidRequest('refresh_token is required');
    const requestedScopes = requested === undefined ? undefined : parseScope(requested);
    if (requestedScopes === null) throw new OAuthError('invalid_scope', 'Unknown scope requested');
    const scope = requestedScopes === undefined ? null : formatScope(requestedScopes);
    const tokens = this.issuer.mint();
    const rotation = { refreshToken, client: { id: client.id }, scope, tokens };
    const rotated = await rotateRefreshToken(this.dataSource, rotation);
    if (rotated !== null) return this.issuer.response(tokens, rotated);
    return this.refreshStepByStep(client, refreshToken, scope);
  }

  /**
   * The refresh in steps, in a transaction: names the failure, and on a replay revokes the family
   * (RFC 9700 section 4.14.2). Issues tokens if the state changed so that the refresh now holds.
   */
  private refreshStepByStep(
    client: OAuthClient,
    refreshToken: string,
    requested: string | null,
  ): Promise<Outcome> {
    return this.dataSource.transaction(async (manager): Promise<Outcome> => {
      const now = this.clock.now();
      const token = await lockRefreshToken(manager, refreshToken, client, now, this.events);
      if (token instanceof OAuthError) return token;
      // RFC 6749 section 6: the scope may narrow, never widen.
      const scope = requested ?? token.scope;
      if (!scopeCovers(token.scope, scope)) {
        return new OAuthError('invalid_scope', 'The requested scope exceeds the original grant');
      }
      const failure = checkRelation(token);
      if (failure) return failure;
      const grant = {
        applicationId: client.id,
        userId: token.userId,
        scope,
        familyId: token.familyId,
        codeId: token.codeId,
        parentId: token.id,
      };
      return this.issuer.issue(manager, grant, 'token_refreshed');
    });
  }
}
