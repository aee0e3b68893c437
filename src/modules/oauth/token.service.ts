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
import { lockRefreshToken } from './steps/rotate-refresh-token';
import { CODE_VERIFIER, verifyPkce } from './steps/verify-pkce';
import { TokenIssuer, TokenResponse } from './token-issuer';

type Outcome = TokenResponse | OAuthError;

/** POST /api/oauth2/token (spec section 4.2; RFC 6749 sections 4.1.3 and 6). */
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
    const client = await authenticateClient(authorization, body, this.dataSource.manager);
    let outcome: Outcome;
    if (grantType === 'authorization_code') outcome = await this.exchangeCode(client, body);
    else if (grantType === 'refresh_token') outcome = await this.refresh(client, body);
    else
      throw new OAuthError(
        'unsupported_grant_type',
        'grant_type must be authorization_code or refresh_token',
      );
    // Failures are returned, not thrown, inside the transaction so that spending the code or
    // revoking a family is committed before the error goes out.
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
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
    const tokens = this.issuer.mint();
    const redemption = {
      code,
      clientId: client.id,
      redirectUri,
      tokens,
      verifierHash: verifier === undefined ? null : s256(verifier),
    };
    const consumed = await redeemCode(this.dataSource.manager, redemption);
    if (!consumed) {
      await this.dataSource.transaction((manager) =>
        revokeReplayedCode(manager, code, tokens.now, this.events),
      );
      return new OAuthError(
        'invalid_grant',
        'The authorization code is invalid, expired or already used',
      );
    }
    if (consumed.issued) return this.issuer.response(tokens, consumed.scope);
    // Nothing was issued: name the binding that failed (the code is spent either way).
    return (
      checkCodeBinding(consumed, client, redirectUri, tokens.now) ??
      verifyPkce(consumed.codeChallenge, verifier) ??
      checkRelation(consumed) ??
      new OAuthError('server_error', 'The code could not be redeemed', 500)
    );
  }

  private async refresh(client: OAuthClient, body: Params): Promise<Outcome> {
    const refreshToken = nonEmptyParam(body, 'refresh_token');
    const requested = nonEmptyParam(body, 'scope');
    if (refreshToken === undefined) throw invalidRequest('refresh_token is required');
    const requestedScopes = requested === undefined ? undefined : parseScope(requested);
    if (requestedScopes === null) throw new OAuthError('invalid_scope', 'Unknown scope requested');
    return this.dataSource.transaction(async (manager): Promise<Outcome> => {
      const now = this.clock.now();
      const token = await lockRefreshToken(manager, refreshToken, client, now, this.events);
      if (token instanceof OAuthError) return token;
      // RFC 6749 section 6: the scope may narrow, never widen.
      const scope = requestedScopes === undefined ? token.scope : formatScope(requestedScopes);
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
