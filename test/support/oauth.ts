import type { INestApplication } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import supertest from 'supertest';
import { createApplication, createUser } from '../factories';

export const REDIRECT_URI = 'https://client.example/cb';
export const ISSUER = 'http://127.0.0.1:3000';
export const PASSWORD = 'correct horse battery staple';

export type Agent = ReturnType<typeof supertest.agent>;

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A browser: a supertest agent that keeps cookies across requests. */
export function browser(app: INestApplication): Agent {
  return supertest.agent(app.getHttpServer());
}

export function authorizePath(params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) query.set(name, value);
  return `/oauth2/authorize?${query.toString()}`;
}

/** The value of a hidden form input in a rendered page. */
export function hiddenInput(html: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  if (!match) throw new Error(`no input ${name} in page`);
  return match[1];
}

export function query(location: string): Record<string, string> {
  return Object.fromEntries(new URL(location, 'http://placeholder').searchParams);
}

export async function oauthSetup(
  app: INestApplication,
  options: { authMethod?: 'secret' | 'none'; emailVerified?: boolean; username?: string } = {},
) {
  const created = await createApplication(app, {
    authMethod: options.authMethod ?? 'none',
    name: 'Demo App',
    redirectUris: [REDIRECT_URI, 'http://127.0.0.1:8123/cb'],
  });
  const user = await createUser(app, {
    username: options.username ?? 'alice',
    email: `${options.username ?? 'alice'}@example.org`,
    password: PASSWORD,
    emailVerified: options.emailVerified ?? true,
    nickname: 'Alice',
  });
  return { application: created.application, clientSecret: created.clientSecret, user };
}

export interface FlowOptions {
  clientId: string;
  scope?: string;
  state?: string;
  challenge?: string;
  redirectUri?: string;
  username?: string;
  password?: string;
  extra?: Record<string, string>;
}

export function authorizeParams(options: FlowOptions): Record<string, string | undefined> {
  return {
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri ?? REDIRECT_URI,
    scope: options.scope ?? 'read',
    state: options.state ?? 'st-123',
    code_challenge: options.challenge,
    code_challenge_method: options.challenge ? 'S256' : undefined,
    ...options.extra,
  };
}

/**
 * Follows /authorize to the login page; returns its submission (username and password as in
 * `options`), not yet sent, so that a test can send many at once.
 */
export async function openLogin(agent: Agent, options: FlowOptions) {
  const start = await agent.get(authorizePath(authorizeParams(options)));
  expectStatus(start, 302);
  const page = await agent.get(start.headers.location);
  expectStatus(page, 200);
  return () =>
    agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(page.text, 'request'),
        csrf_token: hiddenInput(page.text, 'csrf_token'),
        username: options.username ?? 'alice',
        password: options.password ?? PASSWORD,
      });
}

/** Follows /authorize to the login page and submits it; returns the response to the login POST. */
export async function login(agent: Agent, options: FlowOptions) {
  return (await openLogin(agent, options))();
}

/** Login (if needed) and approve consent; returns the final redirect's query. */
export async function authorizeInteractively(
  agent: Agent,
  options: FlowOptions,
): Promise<Record<string, string>> {
  const afterLogin = await login(agent, options);
  expectStatus(afterLogin, 303);
  return approveFrom(agent, afterLogin.headers.location);
}

/** From a redirect to the consent page, approve; returns the query of the redirect to the client. */
export async function approveFrom(
  agent: Agent,
  location: string,
  decision = 'approve',
): Promise<Record<string, string>> {
  if (!location.startsWith('/oauth2/consent')) return query(location);
  const page = await agent.get(location);
  expectStatus(page, 200);
  const res = await agent
    .post('/oauth2/consent')
    .type('form')
    .send({
      request: hiddenInput(page.text, 'request'),
      csrf_token: hiddenInput(page.text, 'csrf_token'),
      decision,
    });
  expectStatus(res, 303);
  return query(res.headers.location);
}

export function expectStatus(res: { status: number; text: string }, status: number): void {
  if (res.status !== status)
    throw new Error(`expected ${status}, got ${res.status}: ${res.text.slice(0, 500)}`);
}

export function basic(clientId: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** POST /api/oauth2/token with a form body. */
export function tokenRequest(
  app: INestApplication,
  form: Record<string, string>,
  authorization?: string,
) {
  const req = supertest(app.getHttpServer()).post('/api/oauth2/token').type('form');
  if (authorization) void req.set('Authorization', authorization);
  return req.send(form);
}

/**
 * Exchanges a code with PKCE for a `none` client (RFC 7636 section 4.5) and expects 200; an
 * openid grant's answer also carries the id_token.
 */
export async function exchangeCode(
  app: INestApplication,
  clientId: string,
  code: string,
  verifier: string,
): Promise<{ access_token: string; refresh_token: string; id_token?: string }> {
  const res = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: clientId,
    code_verifier: verifier,
  });
  expectStatus(res, 200);
  return res.body as { access_token: string; refresh_token: string; id_token?: string };
}
