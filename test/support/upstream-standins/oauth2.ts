import { createHash, randomBytes } from 'node:crypto';
import { formOf, json, redirect, RunningStandIn, startStandIn, StandInRequest } from './server';

export interface OAuth2StandIn extends RunningStandIn {
  clientId: string;
  clientSecret: string;
  settings: { authorizationUrl: string; tokenUrl: string; profileUrl: string };
  /** The profile document the API returns (the test decides its shape). */
  profile: Record<string, unknown>;
}

/**
 * A plain RFC 6749 provider on loopback: authorization code with PKCE S256, the token endpoint
 * answering RFC 6749 section 5.2 errors (HTTP 400 {error}), a Bearer-protected profile URL.
 */
export async function startOAuth2StandIn(): Promise<OAuth2StandIn> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = new Set<string>();
  const standIn = {
    clientId: 'generic-client',
    clientSecret: 'generic-secret',
    profile: {} as Record<string, unknown>,
  };
  const handle = (req: StandInRequest) => {
    const q = req.url.searchParams;
    switch (`${req.method} ${req.url.pathname}`) {
      case 'GET /authorize': {
        const back = new URL(q.get('redirect_uri') ?? '');
        back.searchParams.set('state', q.get('state') ?? '');
        if (q.get('client_id') !== standIn.clientId || q.get('code_challenge_method') !== 'S256') {
          back.searchParams.set('error', 'invalid_request');
          return redirect(back.href);
        }
        const code = randomBytes(12).toString('hex');
        codes.set(code, {
          challenge: q.get('code_challenge') ?? '',
          redirectUri: back.origin + back.pathname,
        });
        back.searchParams.set('code', code);
        return redirect(back.href);
      }
      case 'POST /token': {
        const form = formOf(req);
        if (
          form.get('client_id') !== standIn.clientId ||
          form.get('client_secret') !== standIn.clientSecret
        ) {
          return json({ error: 'invalid_client' }, 401);
        }
        const grant = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        const verifier = form.get('code_verifier') ?? '';
        if (
          !grant ||
          createHash('sha256').update(verifier).digest('base64url') !== grant.challenge
        ) {
          return json({ error: 'invalid_grant' }, 400);
        }
        const token = randomBytes(16).toString('hex');
        tokens.add(token);
        return json({ access_token: token, token_type: 'Bearer', expires_in: 3600 });
      }
      case 'GET /api/me': {
        const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
        if (!tokens.has(token)) return json({ error: 'invalid_token' }, 401);
        return json(standIn.profile);
      }
      default:
        return { status: 404, body: 'not found' };
    }
  };
  const running = await startStandIn(handle);
  return Object.assign(standIn, running, {
    settings: {
      authorizationUrl: `${running.origin}/authorize`,
      tokenUrl: `${running.origin}/token`,
      profileUrl: `${running.origin}/api/me`,
    },
  });
}
