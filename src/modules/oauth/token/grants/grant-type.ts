import type { DataSource } from 'typeorm';
import type { Clock } from '../../../../common/clock';
import type { EventsService } from '../../../events/events.service';
import type { TokensRepository } from '../../../tokens/tokens.repository';
import { repeatedParameter, type FormParams } from '../../protocol/params';
import type { OAuthError } from '../../protocol/oauth-error';
import type { IdTokenService } from '../id-token.service';
import type { OAuthClient } from '../../client-auth/authenticate-client';
import type { TokenBatches } from '../token-batches';
import type { TokenIssuer, TokenResponse } from '../token-issuer';

/**
 * A grant's answer. Failures are returned, not thrown, so that spending a code or revoking a
 * family is committed before the error goes out.
 */
export type GrantOutcome = TokenResponse | OAuthError;

/**
 * What a grant's handler works with (oidc-provider hands its handlers the provider and helpers
 * the same way): the token endpoint's services, given by TokenService.
 */
export interface GrantContext {
  dataSource: DataSource;
  batches: TokenBatches;
  issuer: TokenIssuer;
  idTokens: IdTokenService;
  tokens: TokensRepository;
  events: EventsService;
  clock: Clock;
  /** REFRESH_TOKEN_REUSE_SECONDS (rules/check-refresh-token.ts). */
  reuseSeconds: number;
}

/**
 * One grant type of the token endpoint, as oidc-provider's lib/actions/grants/*.js: the form
 * parameters it reads (`parameters`), the typed request they make, and its handler. The handler
 * receives the typed request, never the form; token.service.ts runs the chain around it. `jkt`
 * is the thumbprint of the request's DPoP proof key (null without a proof): the tokens it issues
 * are bound to it (token-binding.ts).
 */
export interface GrantType<P extends string, R> {
  /** The grant's parameters, in the order their problems are named (RFC 6749 section 3.2). */
  readonly parameters: readonly P[];
  /**
   * The typed request from the grant's parameters (each sent at most once, empty = omitted), or
   * the `invalid_request` naming its first problem. Never throws and never reads the database.
   */
  request(values: Readonly<Partial<Record<P, string>>>): R | OAuthError;
  /**
   * A `none` client named by client_id alone (no Basic header, no secret), checked inside the
   * grant's one statement: one round trip. Null when the statement served nothing (unknown,
   * confidential or disabled client, spent code, failing refresh) or the request does not
   * qualify: the general path then authenticates the client first and names the failure, so the
   * errors and their order are those of the general path.
   */
  asPublicClient(
    context: GrantContext,
    clientId: string,
    request: R,
    jkt: string | null,
  ): Promise<GrantOutcome | null>;
  /** The grant for an authenticated client. */
  handle(
    context: GrantContext,
    client: OAuthClient,
    request: R,
    jkt: string | null,
  ): Promise<GrantOutcome>;
}

/** The grant's typed request from the parsed form: a repeated parameter of the grant first. */
export function grantRequest<P extends string, R>(
  grant: GrantType<P, R>,
  params: FormParams<P>,
): R | OAuthError {
  return repeatedParameter(params, grant.parameters) ?? grant.request(params.values);
}
