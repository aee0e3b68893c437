import type { Request } from 'express';
import type { Metrics, TokenGrantLabel } from '../../../common/metrics/metrics';
import { oauthErrorCode } from '../protocol/oauth-exception.filter';
import { readForm, type FormParams } from '../protocol/params';
import {
  GRANT_TYPES,
  TOKEN_PARAMETERS,
  type GrantTypeName,
  type TokenParameter,
} from './token.service';

/**
 * Reads the token form once (readForm) and hands it to `answer`, the endpoint; counts each
 * answer of the token endpoint (and its /api/oidc alias) by grant type and outcome: `ok`, or the
 * error code the client receives (oauthErrorCode, OAuthExceptionFilter's mapping). Nothing is
 * counted when metrics are off (docs/operations.md, "Metrics").
 *
 * A function the handlers call rather than a Nest interceptor: a route with an interceptor runs
 * its handler through an RxJS pipeline and an AsyncResource on every request, metrics on or off
 * (docs/performance/oauth.md, "The token route without an interceptor").
 */
export async function countTokenRequest<T>(
  metrics: Metrics,
  req: Request,
  answer: (params: FormParams<TokenParameter>) => Promise<T>,
): Promise<T> {
  if (!metrics.enabled) return answer(readForm(req, TOKEN_PARAMETERS));
  // A request readForm refuses (not a form) has no body: the body reader refused any other
  // non-empty body before routing (src/app.setup.ts), so it sent no grant_type.
  let grant: TokenGrantLabel = 'missing';
  try {
    const params = readForm(req, TOKEN_PARAMETERS);
    grant = tokenGrantLabel(params);
    const response = await answer(params);
    metrics.tokenRequest(grant, 'ok');
    return response;
  } catch (error) {
    metrics.tokenRequest(grant, oauthErrorCode(error));
    throw error;
  }
}

/**
 * The grant_type label of a token form as the endpoint read it: a name of the grant registry
 * (GRANT_TYPES) when the form sent it once; `missing` when it sent none; `unsupported` for
 * anything else sent (another value, an empty one, repeated or structured).
 */
export function tokenGrantLabel(params: FormParams<'grant_type'>): TokenGrantLabel {
  const sent = params.values.grant_type;
  if (sent !== undefined && GRANT_TYPES.has(sent)) return sent as GrantTypeName;
  return params.sent.includes('grant_type') ? 'unsupported' : 'missing';
}
