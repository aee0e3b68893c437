import type { Request, Response } from 'express';
import type { Metrics } from '../../../common/metrics/metrics';
import type { DpopService } from '../dpop/dpop.service';
import { countTokenRequest } from './token-metrics';
import type { TokenResponse } from './token-issuer';
import type { TokenService } from './token.service';

/**
 * POST /api/oauth2/token and its /api/oidc alias: the form read once and counted
 * (token-metrics.ts), the request's DPoP proof checked (RFC 9449 section 5: its key binds the
 * tokens; a failing proof is answered before the grant runs), then the grant (token.service.ts).
 * An answer to a request with a proof carries the current `DPoP-Nonce` when nonces are required,
 * so the client's next proof has a fresh one.
 */
export function answerTokenRequest(
  endpoint: { tokens: TokenService; dpop: DpopService; metrics: Metrics },
  req: Request,
  res: Response,
): Promise<TokenResponse> {
  const { tokens, dpop, metrics } = endpoint;
  return countTokenRequest(metrics, req, async (params) => {
    const proven = await dpop.atTokenEndpoint(req);
    const response = await tokens.token(params, req.headers.authorization, proven);
    const nonce = proven === null ? undefined : dpop.nonce();
    if (nonce !== undefined) res.setHeader('DPoP-Nonce', nonce);
    return response;
  });
}
