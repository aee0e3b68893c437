import { createHash, randomBytes } from 'node:crypto';
import {
  formOf,
  json,
  redirect,
  RunningStandIn,
  startStandIn,
  StandInRequest,
  StandInResponse,
} from './server';

export interface GithubUser {
  id: number;
  login: string;
  name: string | null;
  avatar_url: string;
  emails: { email: string; primary: boolean; verified: boolean; visibility: string | null }[];
}

export interface GithubStandIn extends RunningStandIn {
  clientId: string;
  clientSecret: string;
  settings: { authorizationUrl: string; tokenUrl: string; profileUrl: string; emailsUrl: string };
  /** Who approves at the next authorize; null = the person clicks "Cancel". */
  user: GithubUser | null;
  /**
   * false (default): the authorize endpoint answers at once, as if the person had clicked
   * (for HTTP-level tests). true: it shows GitHub's authorization page, with "Authorize" and
   * "Cancel" buttons, for a real browser to click.
   */
  interactive: boolean;
  /** Access tokens issued, for asserting what reached the API. */
  requests: string[];
}

const DOCS =
  'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors';

/**
 * GitHub's OAuth app protocol on loopback, as documented: /login/oauth/authorize (state, PKCE
 * S256), /login/oauth/access_token (form-encoded answer unless Accept: application/json; errors
 * as HTTP 200 with error/error_description/error_uri; codes single-use), and the REST API's
 * /user and /user/emails with Bearer tokens (401 "Bad credentials", 403 without a User-Agent).
 */
export async function startGithubStandIn(): Promise<GithubStandIn> {
  const codes = new Map<
    string,
    { redirectUri: string; challenge: string | null; user: GithubUser }
  >();
  const tokens = new Map<string, GithubUser>();
  const standIn = {
    clientId: 'Iv1.standin',
    clientSecret: 'github-standin-secret',
    user: null as GithubUser | null,
    interactive: false,
    requests: [] as string[],
  };
  /** Back to the client: a code for `user`, or access_denied when the person cancelled. */
  const answerAuthorize = (q: URLSearchParams, user: GithubUser | null): StandInResponse => {
    const redirectUri = q.get('redirect_uri') ?? '';
    const back = new URL(redirectUri);
    if (q.has('state')) back.searchParams.set('state', q.get('state') ?? '');
    if (!user) {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user has denied your application access.');
      back.searchParams.set('error_uri', DOCS);
      return redirect(back.href);
    }
    const code = randomBytes(10).toString('hex');
    const method = q.get('code_challenge_method');
    if (q.has('code_challenge') && method !== 'S256') return { status: 400, body: 'bad pkce' };
    codes.set(code, { redirectUri, challenge: q.get('code_challenge'), user });
    back.searchParams.set('code', code);
    return redirect(back.href);
  };
  const handle = (req: StandInRequest) => {
    standIn.requests.push(`${req.method} ${req.url.pathname}`);
    switch (`${req.method} ${req.url.pathname}`) {
      case 'GET /login/oauth/authorize': {
        const q = req.url.searchParams;
        if (q.get('client_id') !== standIn.clientId) return { status: 404, body: 'Not Found' };
        if (standIn.interactive) return authorizePage(q);
        return answerAuthorize(q, standIn.user);
      }
      case 'POST /login/oauth/authorize': {
        // The person's click on the authorization page: the form carries the original query.
        const form = new URLSearchParams(req.body);
        if (form.get('client_id') !== standIn.clientId) return { status: 404, body: 'Not Found' };
        return answerAuthorize(form, form.get('authorize') === '1' ? standIn.user : null);
      }
      case 'POST /login/oauth/access_token': {
        const form = formOf(req);
        const wantsJson = String(req.headers.accept).includes('application/json');
        const answer = (fields: Record<string, string>) =>
          wantsJson
            ? json(fields)
            : {
                headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
                body: new URLSearchParams(fields).toString(),
              };
        if (
          form.get('client_id') !== standIn.clientId ||
          form.get('client_secret') !== standIn.clientSecret
        ) {
          return answer({
            error: 'incorrect_client_credentials',
            error_description: 'The client_id and/or client_secret passed are incorrect.',
            error_uri: DOCS,
          });
        }
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (!grant) {
          return answer({
            error: 'bad_verification_code',
            error_description: 'The code passed is incorrect or expired.',
            error_uri: DOCS,
          });
        }
        if (form.has('redirect_uri') && form.get('redirect_uri') !== grant.redirectUri) {
          return answer({
            error: 'redirect_uri_mismatch',
            error_description:
              'The redirect_uri MUST match the registered callback URL for this application.',
            error_uri: DOCS,
          });
        }
        if (grant.challenge !== null) {
          const verifier = form.get('code_verifier') ?? '';
          if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) {
            return answer({
              error: 'bad_verification_code',
              error_description: 'The code_verifier does not match the code_challenge.',
              error_uri: DOCS,
            });
          }
        }
        const accessToken = `gho_${randomBytes(18).toString('hex')}`;
        tokens.set(accessToken, grant.user);
        return answer({
          access_token: accessToken,
          token_type: 'bearer',
          scope: 'read:user,user:email',
        });
      }
      case 'GET /user':
      case 'GET /user/emails': {
        if (!req.headers['user-agent']) {
          return json(
            {
              message:
                'Request forbidden by administrative rules. Please make sure your request has a User-Agent header',
            },
            403,
          );
        }
        const auth = String(req.headers.authorization ?? '');
        const user = tokens.get(auth.replace(/^(Bearer|token) /, ''));
        if (!user)
          return json(
            {
              message: 'Bad credentials',
              documentation_url: 'https://docs.github.com/rest',
              status: '401',
            },
            401,
          );
        if (req.url.pathname === '/user/emails') return json(user.emails);
        return json({
          login: user.login,
          id: user.id,
          avatar_url: user.avatar_url,
          name: user.name,
          email: null,
          type: 'User',
        });
      }
      default:
        return json(
          { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
          404,
        );
    }
  };
  const running = await startStandIn(handle);
  return Object.assign(standIn, running, {
    settings: {
      authorizationUrl: `${running.origin}/login/oauth/authorize`,
      tokenUrl: `${running.origin}/login/oauth/access_token`,
      profileUrl: `${running.origin}/user`,
      emailsUrl: `${running.origin}/user/emails`,
    },
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * GitHub's "Authorize application" page, reduced to what a browser test clicks: the query goes
 * back in hidden fields, and each button posts the person's decision.
 */
function authorizePage(q: URLSearchParams): StandInResponse {
  const hidden = [...q]
    .map(
      ([name, value]) =>
        `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`,
    )
    .join('\n');
  return {
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: `<!doctype html>
<html><head><title>Authorize application</title></head>
<body>
<h1>Authorize the GitHub stand-in app</h1>
<form method="post" action="/login/oauth/authorize">
${hidden}
<button type="submit" name="authorize" value="0">Cancel</button>
<button type="submit" name="authorize" value="1">Authorize</button>
</form>
</body></html>`,
  };
}
