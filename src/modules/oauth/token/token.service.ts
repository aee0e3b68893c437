import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import type { TokenGrantLabel } from '../../../common/metrics/metrics';
import { AppConfig } from '../../../config/app-config';
import { EventsService } from '../../events/events.service';
import { TokensRepository } from '../../tokens/tokens.repository';
import {
  CLIENT_AUTH_PARAMETERS,
  clientCredentials,
  type ClientCredentials,
} from '../client-auth/client-credentials';
import { take, type FormParams } from '../protocol/params';
import { OAuthError, invalidRequest } from '../protocol/oauth-error';
import { AUTHORIZATION_CODE_PARAMETERS, authorizationCodeGrant } from './grants/authorization-code';
import {
  grantRequest,
  type GrantContext,
  type GrantOutcome,
  type GrantType,
} from './grants/grant-type';
import { REFRESH_TOKEN_PARAMETERS, refreshTokenGrant } from './grants/refresh-token';
import {
  DEVICE_CODE_GRANT_TYPE,
  DEVICE_CODE_PARAMETERS,
  deviceCodeGrant,
} from './grants/device-code';
import { IdTokenService } from './id-token.service';
import { authenticateClient } from '../client-auth/authenticate-client';
import { TokenBatches } from './token-batches';
import { TokenIssuer, TokenResponse } from './token-issuer';
import type { ProvenKey } from '../dpop/dpop.service';
import { FAPI2_JWS_ALGS } from '../../applications/security-profile';

const isFapi2Alg = (alg: string): boolean => (FAPI2_JWS_ALGS as readonly string[]).includes(alg);

/**
 * The token endpoint's form parameters: what the controller reads of the body
 * (protocol/params.ts), once. Any other parameter is ignored; a grant reads only its own.
 */
export const TOKEN_PARAMETERS = [
  'grant_type',
  ...CLIENT_AUTH_PARAMETERS,
  ...AUTHORIZATION_CODE_PARAMETERS,
  ...REFRESH_TOKEN_PARAMETERS,
  ...DEVICE_CODE_PARAMETERS,
] as const;
export type TokenParameter = (typeof TOKEN_PARAMETERS)[number];

/** A grant_type the endpoint serves: a grant_type label of its metric (common/metrics). */
export type GrantTypeName = Exclude<TokenGrantLabel, 'missing' | 'unsupported'>;

/**
 * The grant types, by grant_type (RFC 6749 sections 4.1.3 and 6): the one list the endpoint
 * serves, names in unsupported_grant_type and labels its metric with (token-metrics.ts). Its keys
 * are typed GrantTypeName: a new grant does not compile until TokenGrantLabel names it.
 */
export const GRANT_TYPES: ReadonlyMap<string, GrantType<TokenParameter, unknown>> = new Map<
  GrantTypeName,
  GrantType<TokenParameter, unknown>
>([
  ['authorization_code', authorizationCodeGrant],
  ['refresh_token', refreshTokenGrant],
  [DEVICE_CODE_GRANT_TYPE, deviceCodeGrant],
]);

/**
 * POST /api/oauth2/token (docs/contract/oauth.md#token-endpoint; RFC 6749 sections 4.1.3 and 6), a chain of steps over
 * the form read once (docs/oauth.md, "Token endpoint"): grant_type; the client credentials; the
 * grant's typed request; for a public client the grant's one statement; client authentication;
 * the grant's handler. A successful exchange or refresh is one SQL statement assembled from the
 * steps in rules/registries.ts; when it issues nothing, the first step that did not hold names
 * the failure.
 */
@Injectable()
export class TokenService {
  private readonly context: GrantContext;

  constructor(
    @InjectDataSource() dataSource: DataSource,
    issuer: TokenIssuer,
    events: EventsService,
    tokens: TokensRepository,
    clock: Clock,
    @Inject(AppConfig) config: AppConfig,
    idTokens: IdTokenService,
    batches: TokenBatches,
  ) {
    const reuseSeconds = config.refreshTokenReuseSeconds;
    this.context = { dataSource, batches, issuer, idTokens, tokens, events, clock, reuseSeconds };
  }

  /** `proven`: the key of the request's DPoP proof (dpop/dpop.service.ts), or null. */
  async token(
    params: FormParams<TokenParameter>,
    authorization: string | undefined,
    proven: ProvenKey | null,
  ): Promise<TokenResponse> {
    const { grant_type: grantType } = take(params, ['grant_type']);
    if (grantType === undefined) throw invalidRequest('grant_type is required');
    const credentials = clientCredentials(params, authorization);
    const grant = GRANT_TYPES.get(grantType);
    const outcome = grant
      ? await this.run(grant, credentials, params, proven)
      : await this.unsupported(credentials);
    if (outcome instanceof OAuthError) throw outcome;
    return outcome;
  }

  /**
   * A public client's well-formed request first tries the grant's one statement; anything else,
   * or a statement that served nothing, authenticates the client before the grant's own errors
   * are named, so the errors and their order do not depend on the path. A client that requires
   * DPoP (`dpop_bound_access_tokens`, RFC 9449 section 5.2) is refused without a proof, before
   * its grant is looked at (the public path's statement serves such a client only with one).
   */
  private async run(
    grant: GrantType<TokenParameter, unknown>,
    credentials: ClientCredentials,
    params: FormParams<TokenParameter>,
    proven: ProvenKey | null,
  ): Promise<GrantOutcome> {
    const jkt = proven?.jkt ?? null;
    const request = grantRequest(grant, params);
    if (credentials.method === 'none' && !(request instanceof OAuthError)) {
      const served = await grant.asPublicClient(this.context, credentials.clientId, request, jkt);
      if (served !== null) return served;
    }
    const client = await authenticateClient(credentials, this.context.dataSource);
    if (client.dpopBoundAccessTokens && proven === null) {
      return invalidRequest('This client must send a DPoP proof with its token requests');
    }
    // FAPI 2.0 section 5.4.1: a fapi2 client's proofs are PS256, ES256 or EdDSA.
    if (client.securityProfile === 'fapi2' && proven && !isFapi2Alg(proven.alg)) {
      return new OAuthError(
        'invalid_dpop_proof',
        'This client must sign its DPoP proofs with PS256, ES256 or EdDSA',
      );
    }
    if (request instanceof OAuthError) return request;
    return grant.handle(this.context, client, request, jkt);
  }

  /** An unknown grant_type is named after client authentication (RFC 6749 section 5.2). */
  private async unsupported(credentials: ClientCredentials): Promise<OAuthError> {
    await authenticateClient(credentials, this.context.dataSource);
    const known = [...GRANT_TYPES.keys()].join(' or ');
    return new OAuthError('unsupported_grant_type', `grant_type must be ${known}`);
  }
}
