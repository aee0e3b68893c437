import type { INestApplication } from '@nestjs/common';
import { browser, expectStatus, hiddenInput, PASSWORD, type Agent } from './oauth';

/** The CSRF token of the form posting to `action` on a rendered page. */
export function formToken(html: string, action: string): string {
  const start = html.indexOf(`action="${action}"`);
  if (start < 0) throw new Error(`no form posting to ${action} on the page`);
  return hiddenInput(html.slice(start), 'csrf_token');
}

/** A browser signed in at /account/login with `username` and `password` (303 to /account). */
export async function accountBrowser(
  app: INestApplication,
  username = 'alice',
  password = PASSWORD,
): Promise<Agent> {
  const agent = browser(app);
  const res = await submitAccountLogin(agent, username, password);
  expectStatus(res, 303);
  return agent;
}

/** GET /account/login and post its form; the answer to the POST. */
export async function submitAccountLogin(agent: Agent, username: string, password: string) {
  const page = await agent.get('/account/login');
  expectStatus(page, 200);
  return agent
    .post('/account/login')
    .type('form')
    .send({ csrf_token: hiddenInput(page.text, 'csrf_token'), username, password });
}

/** GET /account (200 expected) and post the form of `action` with its own token and `fields`. */
export async function postAccountForm(
  agent: Agent,
  action: string,
  fields: Record<string, string> = {},
) {
  const page = await agent.get('/account');
  expectStatus(page, 200);
  return agent
    .post(action)
    .type('form')
    .send({ csrf_token: formToken(page.text, action), ...fields });
}
