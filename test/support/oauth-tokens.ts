import type { INestApplication } from '@nestjs/common';
import supertest from 'supertest';
import {
  authorizeInteractively,
  basic,
  browser,
  expectStatus,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from './oauth';

/** A client as the tests present it: a `none` client has no secret. */
export interface TestClient {
  clientId: string;
  clientSecret?: string | null;
}

export interface IssuedTokens {
  access_token: string;
  refresh_token: string;
  scope: string;
}

/** The client's credentials: HTTP Basic, the form fields, or client_id alone for `none`. */
export function clientCredentials(
  client: TestClient,
  how: 'basic' | 'post' = 'basic',
): { form: Record<string, string>; authorization?: string } {
  if (!client.clientSecret) return { form: { client_id: client.clientId } };
  if (how === 'basic')
    return { form: {}, authorization: basic(client.clientId, client.clientSecret) };
  return { form: { client_id: client.clientId, client_secret: client.clientSecret } };
}

/** Signs `username` in, approves, and exchanges the code (with PKCE) for the client's tokens. */
export async function obtainTokens(
  app: INestApplication,
  client: TestClient,
  options: { scope?: string; username?: string } = {},
): Promise<IssuedTokens> {
  const { verifier, challenge } = pkce();
  const { code } = await authorizeInteractively(browser(app), {
    clientId: client.clientId,
    challenge,
    scope: options.scope,
    username: options.username,
  });
  const credentials = clientCredentials(client);
  const res = await tokenRequest(
    app,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
      ...credentials.form,
    },
    credentials.authorization,
  );
  expectStatus(res, 200);
  return res.body as IssuedTokens;
}

/** Refreshes at the token endpoint as `client` (the response, whatever it is). */
export function refreshAs(app: INestApplication, client: TestClient, refreshToken: string) {
  const credentials = clientCredentials(client);
  return tokenRequest(
    app,
    { grant_type: 'refresh_token', refresh_token: refreshToken, ...credentials.form },
    credentials.authorization,
  );
}

/** POST /api/oauth2/<endpoint> (revoke, introspect) with a form and optional Authorization. */
export function tokenManagementRequest(
  app: INestApplication,
  endpoint: 'revoke' | 'introspect',
  form: Record<string, string>,
  authorization?: string,
) {
  const req = supertest(app.getHttpServer()).post(`/api/oauth2/${endpoint}`).type('form');
  if (authorization) void req.set('Authorization', authorization);
  return req.send(form);
}

/** The endpoint called as `client`, with its credentials added to `form`. */
export function callAs(
  app: INestApplication,
  endpoint: 'revoke' | 'introspect',
  client: TestClient,
  form: Record<string, string>,
  how: 'basic' | 'post' = 'basic',
) {
  const credentials = clientCredentials(client, how);
  return tokenManagementRequest(
    app,
    endpoint,
    { ...form, ...credentials.form },
    credentials.authorization,
  );
}

/** GET /api/oauth2/userinfo with the access token: its status tells whether the token works. */
export async function userinfoStatus(app: INestApplication, accessToken: string): Promise<number> {
  const res = await supertest(app.getHttpServer())
    .get('/api/oauth2/userinfo')
    .set('Authorization', `Bearer ${accessToken}`);
  return res.status;
}
