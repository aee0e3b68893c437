import { ApplicationsService } from '../../src/modules/applications/applications.service';
import { createApplication, createUser } from '../factories';
import {
  authorizeInteractively,
  browser,
  exchangeCode,
  expectStatus,
  PASSWORD,
  pkce,
  REDIRECT_URI,
} from './oauth';
import type { TestApp } from './test-app';

/** A public client whose logout URI is `url` (none when null). */
export async function logoutClient(
  t: TestApp,
  url: string | null,
  name = 'RP',
): Promise<{ id: number; clientId: string }> {
  const { application } = await createApplication(t.app, {
    name,
    authMethod: 'none',
    redirectUris: [REDIRECT_URI],
  });
  await t.app.get(ApplicationsService).update(application.id, { backchannelLogoutUri: url });
  return { id: application.id, clientId: application.clientId };
}

let people = 0;

/**
 * A new user signs in through the pages of an `openid` authorization by `clientId`, gets its
 * id_token, and signs out at the end-session endpoint: one logout queued for that client.
 * Answers the id_token's claims.
 */
export async function signInAndOut(t: TestApp, clientId: string): Promise<Record<string, unknown>> {
  people += 1;
  const username = `person${people}`;
  await createUser(t.app, {
    username,
    email: `${username}@example.org`,
    password: PASSWORD,
    emailVerified: true,
  });
  const agent = browser(t.app);
  const { verifier, challenge } = pkce();
  const { code } = await authorizeInteractively(agent, {
    clientId,
    challenge,
    username,
    scope: 'openid',
  });
  const { id_token: idToken } = await exchangeCode(t.app, clientId, code, verifier);
  if (idToken === undefined) throw new Error('no id_token');
  const out = await agent.get(`/oauth2/logout?id_token_hint=${encodeURIComponent(idToken)}`);
  expectStatus(out, 200);
  return JSON.parse(Buffer.from(idToken.split('.')[1], 'base64url').toString()) as Record<
    string,
    unknown
  >;
}
