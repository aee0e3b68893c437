import { refreshScope } from '../protocol/scopes';
import type { Params } from '../protocol/params';
import { CODE_VERIFIER } from './rules/verify-pkce';

/**
 * Token requests that the one-statement paths can serve as they are: a public client named by
 * client_id alone (no HTTP Basic, no client_secret) with every parameter present and well-formed.
 * Anything else is null and takes the general path, which authenticates the client first and
 * reports errors in the usual order (spec section 5; RFC 6749 section 5.2). Never throws.
 */
export interface PublicCodeRequest {
  clientId: string;
  code: string;
  redirectUri: string;
  verifier: string;
}

export interface PublicRefreshRequest {
  clientId: string;
  refreshToken: string;
  /** The requested scope in canonical form, or null to keep the token's scope. */
  scope: string | null;
}

export function publicCodeRequest(
  body: Params,
  authorization: string | undefined,
): PublicCodeRequest | null {
  const clientId = publicClientId(body, authorization);
  const code = text(body, 'code');
  const redirectUri = text(body, 'redirect_uri');
  const verifier = text(body, 'code_verifier');
  if (clientId === undefined || code === undefined || redirectUri === undefined) return null;
  if (verifier === undefined || !CODE_VERIFIER.test(verifier)) return null;
  return { clientId, code, redirectUri, verifier };
}

export function publicRefreshRequest(
  body: Params,
  authorization: string | undefined,
): PublicRefreshRequest | null {
  const clientId = publicClientId(body, authorization);
  const refreshToken = text(body, 'refresh_token');
  if (clientId === undefined || refreshToken === undefined) return null;
  if (body.scope !== undefined && typeof body.scope !== 'string') return null;
  return { clientId, refreshToken, scope: refreshScope(body.scope) };
}

function publicClientId(body: Params, authorization: string | undefined): string | undefined {
  if (authorization !== undefined && authorization.trim() !== '') return undefined;
  if (body.client_secret !== undefined) return undefined;
  const clientId = text(body, 'client_id');
  return clientId !== undefined && clientId.length <= 64 ? clientId : undefined;
}

/** A parameter sent once and non-empty; anything else is left to the general path to report. */
function text(body: Params, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}
