import { OAuthError } from '../../protocol/oauth-error';
import { EMAIL_CLAIMS, PROFILE_CLAIMS } from '../../protocol/oidc-claims';
import { EMAILS_SCOPES, PROFILE_SCOPES, scopeAllows, type OAuthScope } from '../../protocol/scopes';
import { type Params } from '../../../../common/http/params';
import { param } from '../../protocol/params';

/** What an OpenID Connect request's `claims` parameter (OIDC Core 5.5) asks of us. */
export interface RequestedClaims {
  /** Scopes that release the requested claims and that `scope` did not already cover. */
  scopes: OAuthScope[];
  /** `acr` was requested as an id_token claim (OIDC Core 5.5.1.1). */
  acr: boolean;
}

const NONE: RequestedClaims = { scopes: [], acr: false };

/**
 * Reads `claims` (OIDC Core 5.5): a JSON object whose `userinfo` and `id_token` members map claim
 * names to null or to an object (`essential`, `value`, `values`). A claim we hold is released
 * through the scope that releases it (profile or email), so consent and remembered grants
 * cover it; claims we do not hold are ignored, essential or not (5.5.1 allows it). Anything
 * that is not such an object is invalid_request.
 */
export function checkClaimsParameter(params: Params, scope: string): RequestedClaims {
  const raw = param(params, 'claims');
  if (raw === undefined || raw === '') return NONE;
  const parsed = parseObject(raw);
  const userinfo = member(parsed, 'userinfo');
  const idToken = member(parsed, 'id_token');
  const names = [...Object.keys(userinfo), ...Object.keys(idToken)];
  const scopes: OAuthScope[] = [];
  if (names.some((name) => PROFILE_CLAIMS.includes(name)) && !scopeAllows(scope, PROFILE_SCOPES))
    scopes.push('profile');
  if (names.some((name) => EMAIL_CLAIMS.includes(name)) && !scopeAllows(scope, EMAILS_SCOPES))
    scopes.push('email');
  return { scopes, acr: 'acr' in idToken };
}

function parseObject(raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidClaims();
  }
  if (!isObject(parsed)) throw invalidClaims();
  return parsed;
}

/** A member of the claims object: absent → {}; each requested claim is null or an object. */
function member(claims: Record<string, unknown>, name: string): Record<string, unknown> {
  const value = claims[name];
  if (value === undefined) return {};
  if (!isObject(value)) throw invalidClaims();
  for (const request of Object.values(value)) {
    if (request !== null && !isObject(request)) throw invalidClaims();
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalidClaims(): OAuthError {
  return new OAuthError(
    'invalid_request',
    'The claims parameter must be a JSON object whose userinfo and id_token members are objects',
  );
}
