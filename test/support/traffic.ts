import type { INestApplication } from '@nestjs/common';
import supertest from 'supertest';
import { createApiKey } from '../factories';
import { bearer } from '../factories/app-users';
import { browser, expectStatus, login, oauthSetup, tokenRequest } from './oauth';
import { obtainTokens, refreshAs, type TestClient } from './oauth-tokens';

/** The traffic's application, and one round of it (`errors` adds refused requests). */
export interface EverydayTraffic {
  applicationId: number;
  round: (options?: { errors?: boolean }) => Promise<void>;
}

/**
 * Sets up a client (its application), its user and an API key, for rounds of traffic that fill
 * the dashboard's panels: a sign-in (consent the first time) and code exchange, a refresh, an App
 * API call and, with `errors`, a wrong password, a bad grant and an App API call without a key.
 */
export async function everydayTraffic(app: INestApplication): Promise<EverydayTraffic> {
  const { application, clientSecret } = await oauthSetup(app, { authMethod: 'secret' });
  const client: TestClient = { clientId: application.clientId, clientSecret };
  const { plaintext } = await createApiKey(app, application.id, ['user:read']);
  const http = () => supertest(app.getHttpServer());
  const round: EverydayTraffic['round'] = async ({ errors = false } = {}) => {
    const tokens = await obtainTokens(app, client);
    expectStatus(await refreshAs(app, client, tokens.refresh_token), 200);
    expectStatus(
      await http()
        .get('/api/v1/app/users')
        .set(...bearer(plaintext)),
      200,
    );
    if (!errors) return;
    // An unknown account: its failures (401, then 429 once throttled) never throttle alice's.
    const wrong = { clientId: client.clientId, username: 'nobody', password: 'wrong' };
    const refused = await login(browser(app), wrong);
    if (refused.status !== 429) expectStatus(refused, 401);
    expectStatus(await tokenRequest(app, { grant_type: 'authorization_code', code: 'x' }), 401);
    expectStatus(await http().get('/api/v1/app/users'), 401);
  };
  return { applicationId: application.id, round };
}
