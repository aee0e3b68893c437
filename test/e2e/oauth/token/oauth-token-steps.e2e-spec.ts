import { lockRefreshToken } from '../../../../src/modules/oauth/token/grants/refresh-token';
import { firstFailure } from '../../../../src/modules/oauth/token/rules/step';
import {
  EXCHANGE_STEPS,
  REFRESH_STEPS,
} from '../../../../src/modules/oauth/token/rules/registries';
import { createApplication } from '../../../factories';
import {
  authorizeInteractively,
  browser,
  exchangeCode,
  oauthSetup,
  pkce,
  REDIRECT_URI,
  tokenRequest,
} from '../../../support/oauth';
import { createTestApp, TestApp } from '../../../support/test-app';

/**
 * Each step of the token endpoint, violated alone, fails the request with that
 * step's error, and nothing is issued. One case per step of the registries (src/modules/oauth/
 * token/rules/registries.ts); a step without a case here fails the first test of its block.
 */
/** REFRESH_TOKEN_REUSE_SECONDS by default (.env.example). */
const REUSE_SECONDS = 10;

describe('Token endpoint: each step, violated alone, names itself', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  beforeEach(() => t.truncate());

  const secondsAgo = (seconds: number) => new Date(t.clock.now().getTime() - seconds * 1000);
  const past = () => secondsAgo(1);
  const sql = (query: string, params: unknown[] = []) => t.dataSource.query(query, params);
  const count = async (table: string): Promise<number> =>
    Number((await sql(`SELECT count(*) AS n FROM ${table}`))[0].n);

  /** A public client, a signed-in user's code for it (scope read), and its verifier. */
  async function freshCode() {
    const setup = await oauthSetup(t.app, { authMethod: 'none' });
    const { verifier, challenge } = pkce();
    const { code } = await authorizeInteractively(browser(t.app), {
      clientId: setup.application.clientId,
      challenge,
    });
    const other = await createApplication(t.app, {
      authMethod: 'none',
      name: 'Other App',
      redirectUris: [REDIRECT_URI],
    });
    const form = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: setup.application.clientId,
      code_verifier: verifier,
    };
    return { ...setup, code, verifier, form, otherClientId: other.application.clientId };
  }

  type Form = Record<string, string>;
  type Code = Awaited<ReturnType<typeof freshCode>>;
  /** Breaks exactly the step's rule; returns the form to send. */
  const exchangeCases: Record<
    string,
    { violate(c: Code): Form | Promise<Form>; error: string; description: string }
  > = {
    code_client: {
      violate: (c) => ({ ...c.form, client_id: c.otherClientId }),
      error: 'invalid_grant',
      description: 'The authorization code was issued to another client',
    },
    code_expiry: {
      violate: async (c) => {
        await sql('UPDATE oauth_codes SET expires_at = $1', [past()]);
        return c.form;
      },
      error: 'invalid_grant',
      description: 'The authorization code has expired',
    },
    code_redirect_uri: {
      violate: (c) => ({ ...c.form, redirect_uri: 'http://127.0.0.1:8123/cb' }),
      error: 'invalid_grant',
      description: 'redirect_uri does not match the authorization request',
    },
    pkce: {
      violate: (c) => ({ ...c.form, code_verifier: pkce().verifier }),
      error: 'invalid_grant',
      description: 'The code_verifier does not match the code_challenge',
    },
    relation: {
      violate: async (c) => {
        await sql('UPDATE app_users SET enabled = false');
        return c.form;
      },
      error: 'invalid_grant',
      description: "The user's access to this application is disabled",
    },
  };

  describe('code exchange', () => {
    it('has a case for every exchange step', () => {
      expect(Object.keys(exchangeCases).sort()).toEqual(EXCHANGE_STEPS.map((s) => s.name).sort());
    });

    it('issues when no step is violated', async () => {
      const c = await freshCode();
      expect((await tokenRequest(t.app, c.form)).status).toBe(200);
    });

    it.each(EXCHANGE_STEPS.map((s) => s.name))('%s', async (name) => {
      const c = await freshCode();
      const { error, description } = exchangeCases[name];
      const res = await tokenRequest(t.app, await exchangeCases[name].violate(c));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error, error_description: description });
      expect(await count('oauth_tokens')).toBe(0);
      // The code is spent all the same (RFC 6749 section 4.1.2).
      expect((await tokenRequest(t.app, c.form)).status).toBe(400);
    });
  });

  /** A live refresh token of scope `read`, and a function to refresh it as the public client. */
  async function freshRefresh() {
    const c = await freshCode();
    const first = await exchangeCode(t.app, c.application.clientId, c.code, c.verifier);
    const form = {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: c.application.clientId,
    };
    return { ...c, form };
  }

  type Refresh = Awaited<ReturnType<typeof freshRefresh>>;
  const refreshCases: Record<
    string,
    { violate(r: Refresh): Form | Promise<Form>; error: string; description: string }
  > = {
    refresh_client: {
      violate: (r) => ({ ...r.form, client_id: r.otherClientId }),
      error: 'invalid_grant',
      description: 'The refresh token is invalid',
    },
    refresh_dpop_key: {
      violate: async (r) => {
        // Bound to a DPoP key (RFC 9449 section 5); the request carries no proof of it.
        await sql('UPDATE oauth_tokens SET refresh_dpop_jkt = $1', ['k'.repeat(43)]);
        return r.form;
      },
      error: 'invalid_grant',
      description: 'The refresh token is bound to a DPoP key: send a proof of that key',
    },
    refresh_not_revoked: {
      violate: async (r) => {
        await sql('UPDATE oauth_tokens SET revoked_at = $1', [past()]);
        return r.form;
      },
      error: 'invalid_grant',
      description: 'The refresh token has been revoked',
    },
    refresh_not_replayed: {
      violate: async (r) => {
        // Rotated just before the reuse interval (REFRESH_TOKEN_REUSE_SECONDS, 10 by default).
        await sql('UPDATE oauth_tokens SET rotated_at = $1', [secondsAgo(REUSE_SECONDS + 1)]);
        return r.form;
      },
      error: 'invalid_grant',
      description: 'The refresh token was already used; its token family has been revoked',
    },
    refresh_not_superseded: {
      violate: async (r) => {
        // Another branch of the family (a reuse within the interval) rotated before the interval:
        // its successor, one generation later, is older than REFRESH_TOKEN_REUSE_SECONDS.
        await sql(
          `INSERT INTO oauth_tokens (application_id, user_id, access_token_hash, scope,
             access_expires_at, refresh_expires_at, family_id, generation, created_at)
           SELECT application_id, user_id, repeat('0', 64), scope, access_expires_at,
             refresh_expires_at, family_id, generation + 1, $1 FROM oauth_tokens`,
          [secondsAgo(REUSE_SECONDS + 1)],
        );
        return r.form;
      },
      error: 'invalid_grant',
      description:
        'The refresh token was superseded by another refresh of its family; the family has been revoked',
    },
    refresh_expiry: {
      violate: async (r) => {
        await sql('UPDATE oauth_tokens SET refresh_expires_at = $1', [past()]);
        return r.form;
      },
      error: 'invalid_grant',
      description: 'The refresh token has expired',
    },
    refresh_scope: {
      violate: (r) => ({ ...r.form, scope: 'read email' }),
      error: 'invalid_scope',
      description: 'The requested scope exceeds the original grant',
    },
    relation: {
      violate: async (r) => {
        await sql('UPDATE app_users SET granted_scope = NULL');
        return r.form;
      },
      error: 'invalid_grant',
      description: 'The authorization has been revoked',
    },
  };

  describe('refresh', () => {
    it('has a case for every refresh step', () => {
      expect(Object.keys(refreshCases).sort()).toEqual(REFRESH_STEPS.map((s) => s.name).sort());
    });

    it('rotates when no step is violated', async () => {
      const r = await freshRefresh();
      expect((await tokenRequest(t.app, r.form)).status).toBe(200);
    });

    it.each(REFRESH_STEPS.map((s) => s.name))('%s', async (name) => {
      const r = await freshRefresh();
      const { error, description } = refreshCases[name];
      const res = await tokenRequest(t.app, await refreshCases[name].violate(r));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error, error_description: description });
      // The superseded case added the other branch's token.
      expect(await count('oauth_tokens')).toBe(name === 'refresh_not_superseded' ? 2 : 1);
      const revoked = await sql('SELECT revoked_at FROM oauth_tokens');
      // Only a replay revokes (the whole family); a revoked token stays revoked.
      const expectRevoked = [
        'refresh_not_replayed',
        'refresh_not_superseded',
        'refresh_not_revoked',
      ].includes(name);
      for (const row of revoked) expect(row.revoked_at !== null).toBe(expectRevoked);
    });

    // The reuse interval is the step's condition, so the one statement and the
    // step-by-step path (its lock statement and firstFailure) agree at both edges.
    it.each([
      [REUSE_SECONDS, true],
      [REUSE_SECONDS + 1, false],
    ])('refresh_not_replayed: a token rotated %i s ago holds: %s', async (ago, holds) => {
      const r = await freshRefresh();
      const rotatedAt = secondsAgo(ago);
      await sql('UPDATE oauth_tokens SET rotated_at = $1', [rotatedAt]);
      const lock = { refreshToken: r.form.refresh_token, clientId: r.application.id };
      const step = await t.dataSource.transaction(async (manager) => {
        const row = await lockRefreshToken(manager, {
          ...lock,
          now: t.clock.now(),
          scope: null,
          reuseSeconds: REUSE_SECONDS,
          jkt: null,
        });
        const revokeFamily = () => Promise.resolve();
        return firstFailure(REFRESH_STEPS, row!, { revokeFamily });
      });
      expect(step === null).toBe(holds);
      const res = await tokenRequest(t.app, r.form);
      expect(res.status).toBe(holds ? 200 : 400);
      const rows = await sql('SELECT rotated_at FROM oauth_tokens WHERE parent_id IS NULL');
      // A reuse issues a sibling but never moves the first rotation forward.
      expect(rows).toEqual([{ rotated_at: rotatedAt }]);
    });
  });
});
