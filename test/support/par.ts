import type { TestApp } from './test-app';
import { pkce, REDIRECT_URI } from './oauth';

/** The form of a valid pushed authorization request of `clientId` (PKCE, scope read). */
export function pushedForm(clientId: string, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkce();
  const form: Record<string, string> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT_URI,
    scope: 'read',
    state: 'st-par',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...extra,
  };
  return { form, verifier };
}

/** POST /oauth2/par (or `path`) with `form`, with HTTP Basic when `basic` is given. */
export function push(
  t: TestApp,
  form: Record<string, string>,
  basic?: { id: string; secret: string },
  path = '/oauth2/par',
) {
  const request = t.http().post(path).type('form');
  if (basic) request.auth(basic.id, basic.secret);
  return request.send(form);
}

/** /oauth2/authorize with a request_uri and the client_id, plus `extra` parameters. */
export function authorizeWithRequestUri(
  clientId: string,
  requestUri: string,
  extra: Record<string, string> = {},
  path = '/oauth2/authorize',
): string {
  const query = new URLSearchParams({ client_id: clientId, request_uri: requestUri, ...extra });
  return `${path}?${query.toString()}`;
}
