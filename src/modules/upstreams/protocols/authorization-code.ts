import { UpstreamError } from '../providers/upstream-provider';
import { fetchJson, stringField } from './http';

/** The callback's error answer (RFC 6749 section 4.1.2.1), before anything else is looked at. */
export function checkCallbackError(query: Record<string, string>): void {
  const error = query.error;
  if (error === undefined) return;
  if (error === 'access_denied') throw new UpstreamError('denied', 'the sign-in was declined');
  throw new UpstreamError('invalid_response', `the provider answered error ${error.slice(0, 64)}`);
}

export function requireCode(query: Record<string, string>): string {
  const code = query.code;
  if (typeof code !== 'string' || code === '') {
    throw new UpstreamError('invalid_response', 'the callback has no code');
  }
  return code;
}

/** RFC 6749 section 5.2: `error` is a string; bounded, it goes into a log line. */
export function oauthError(body: Record<string, unknown>): string | null {
  return typeof body.error === 'string' ? body.error.slice(0, 64) : null;
}

/**
 * One provider's token request for an authorization code (RFC 6749 section 4.1.3) and how it
 * answers. The parameters are the provider's own (GitHub takes no grant_type, QQ wants fmt=json).
 */
export interface CodeExchange {
  /** Who answers, in error messages: "GitHub", "QQ", "the token endpoint". */
  provider: string;
  tokenUrl: string;
  /**
   * `form`: POST application/x-www-form-urlencoded with `Accept: application/json` (RFC 6749;
   * GitHub answers form-encoded without that Accept). `query`: GET with the parameters as the
   * URL's query, replacing any it had (QQ Connect).
   */
  send: 'form' | 'query';
  params: Record<string, string>;
  /**
   * The provider's error in an answer of any status, as text for the message, or null.
   * Defaults to RFC 6749's `error` string; GitHub and QQ also put it in HTTP 200 answers.
   */
  errorOf?: (body: Record<string, unknown>) => string | null;
  /**
   * RFC 6749 section 5.1: success is HTTP 200. False for QQ Connect, whose answers are judged by
   * their body alone.
   */
  requireOk?: boolean;
}

export interface TokenAnswer {
  accessToken: string;
  /** The whole JSON answer, for the fields beside the token. */
  body: Record<string, unknown>;
}

/**
 * The token request and its checks, shared by the kinds that speak OAuth 2.0 without OpenID
 * Connect (github, oauth2, qq). fetchJson makes an unreachable provider, a timeout or a 5xx
 * `unavailable` and an answer that is not a JSON object `invalid_response`; then an error in the
 * answer (whatever its status), a status other than 200 and a missing access_token are
 * `invalid_response`, in that order. (openid-client, used by the oidc kind, is stricter than
 * these providers allow: it requires token_type, validates any id_token against an issuer these
 * kinds do not have, and only POSTs.)
 */
export async function exchangeCode(exchange: CodeExchange): Promise<TokenAnswer> {
  const params = new URLSearchParams(exchange.params);
  let answer: { status: number; body: Record<string, unknown> };
  if (exchange.send === 'form') {
    answer = await fetchJson(exchange.tokenUrl, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: params,
    });
  } else {
    const url = new URL(exchange.tokenUrl);
    url.search = params.toString();
    answer = await fetchJson(url);
  }
  const error = (exchange.errorOf ?? oauthError)(answer.body);
  if (error !== null) {
    throw new UpstreamError('invalid_response', `${exchange.provider} refused the code: ${error}`);
  }
  const accessToken = stringField(answer.body.access_token);
  if ((exchange.requireOk !== false && answer.status !== 200) || !accessToken) {
    throw new UpstreamError('invalid_response', `${exchange.provider} gave no access token`);
  }
  return { accessToken, body: answer.body };
}
