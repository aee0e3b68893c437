import type { INestApplication } from '@nestjs/common';
import supertest from 'supertest';
import type { NewApplication } from '../../src/modules/applications/application-rules';
import { createApplication, createUser } from '../factories';
import { basic, expectStatus, hiddenInput, PASSWORD, REDIRECT_URI, type Agent } from './oauth';

export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

export interface DeviceAnswer {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** A client registered for the device grant (a `none` one unless said), and the user alice. */
export async function deviceSetup(
  app: INestApplication,
  input: Partial<NewApplication> = {},
  username = 'alice',
) {
  const created = await createApplication(app, {
    authMethod: 'none',
    name: 'Living Room TV',
    // The registration still requires one, though the device grant never redirects.
    redirectUris: [REDIRECT_URI],
    deviceCodeGrant: true,
    ...input,
  });
  const user = await createUser(app, {
    username,
    email: `${username}@example.org`,
    password: PASSWORD,
    emailVerified: true,
    nickname: 'Alice',
  });
  return { application: created.application, clientSecret: created.clientSecret, user };
}

/** POST /oauth2/device_authorization as a `none` client, or with Basic when `secret` is given. */
export function deviceAuthorization(
  app: INestApplication,
  clientId: string,
  form: Record<string, string> = {},
  secret?: string,
  path = '/oauth2/device_authorization',
) {
  const req = supertest(app.getHttpServer()).post(path).type('form');
  if (secret !== undefined) {
    void req.set('Authorization', basic(clientId, secret));
    return req.send(form);
  }
  return req.send({ client_id: clientId, ...form });
}

/** A device authorization that must succeed. */
export async function startDevice(
  app: INestApplication,
  clientId: string,
  scope = 'openid profile',
  secret?: string,
): Promise<DeviceAnswer> {
  const res = await deviceAuthorization(app, clientId, { scope }, secret);
  expectStatus(res, 200);
  return res.body as DeviceAnswer;
}

/** The device's poll of the token endpoint. */
export function poll(app: INestApplication, clientId: string, deviceCode: string, secret?: string) {
  const req = supertest(app.getHttpServer()).post('/api/oauth2/token').type('form');
  const form = { grant_type: DEVICE_GRANT, device_code: deviceCode };
  if (secret !== undefined) {
    void req.set('Authorization', basic(clientId, secret));
    return req.send(form);
  }
  return req.send({ ...form, client_id: clientId });
}

/** GET /device then POST its form with `userCode`; the answer to the POST. */
export async function enterCode(agent: Agent, userCode: string, path = '/device') {
  const page = await agent.get(path);
  expectStatus(page, 200);
  return agent
    .post('/device')
    .type('form')
    .send({ csrf_token: hiddenInput(page.text, 'csrf_token'), user_code: userCode });
}

/**
 * From the answer to a submitted code, through the login page (alice's password) to the
 * confirmation page; returns the confirmation page's response.
 */
export async function signInToConfirm(
  agent: Agent,
  entered: { status: number; text: string; headers: Record<string, string> },
  username = 'alice',
) {
  expectStatus(entered, 303);
  let location = entered.headers.location;
  if (location.startsWith('/oauth2/login')) {
    const login = await agent.get(location);
    expectStatus(login, 200);
    const signedIn = await agent
      .post('/oauth2/login')
      .type('form')
      .send({
        request: hiddenInput(login.text, 'request'),
        csrf_token: hiddenInput(login.text, 'csrf_token'),
        username,
        password: PASSWORD,
      });
    expectStatus(signedIn, 303);
    location = signedIn.headers.location;
  }
  expect(location).toMatch(/^\/device\/confirm\?request=/);
  const confirm = await agent.get(location);
  expectStatus(confirm, 200);
  return confirm;
}

/** Submits the confirmation page's form with `decision`. */
export function decide(agent: Agent, confirm: { text: string }, decision: 'approve' | 'deny') {
  return agent
    .post('/device/confirm')
    .type('form')
    .send({
      request: hiddenInput(confirm.text, 'request'),
      csrf_token: hiddenInput(confirm.text, 'csrf_token'),
      decision,
    });
}

/** The whole person's part: code, sign-in, confirmation, `decision`; expects the end page. */
export async function personAnswers(
  agent: Agent,
  userCode: string,
  decision: 'approve' | 'deny' = 'approve',
  username = 'alice',
) {
  const confirm = await signInToConfirm(agent, await enterCode(agent, userCode), username);
  const answered = await decide(agent, confirm, decision);
  expectStatus(answered, 200);
  return answered;
}
