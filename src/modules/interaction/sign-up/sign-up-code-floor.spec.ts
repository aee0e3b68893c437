import type { DataSource } from 'typeorm';
import { PageLanguage } from '../../../common/i18n/page-language';
import type { AppConfig } from '../../../config/app-config';
import type { BrowserContext } from '../../sessions/cookies';
import { Csrf } from '../../sessions/csrf';
import { ANSWER_FLOOR_MS } from '../answer-floor';
import type { OneTimeCodes } from '../one-time-codes/one-time-codes.service';
import type { PendingInteractions } from '../pending-interactions';
import { SignUpAccounts } from './sign-up-accounts';
import { SignUpBrowser } from './sign-up-browser';
import { SignUpCodeService } from './sign-up-code.service';
import { SignUpOffer } from './sign-up-offer';
import { SignUpViews } from './sign-up-views';

// The code page's refusals answer after the reset page's floor (answer-floor.ts), measured as
// answer-floor.spec.ts measures it: with fake timers, whether the answer has settled.

const ID = '0b6c1c6e-4f0a-4d8e-9d5e-3f7f4b1f2a10';
const config = { signUpEnabled: true, sessionSecret: 's'.repeat(32) } as AppConfig;

describe(SignUpCodeService.name, () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const csrf = new Csrf(config);
  const browsers = new SignUpBrowser(csrf);
  /** A browser with a CSRF cookie of ours, as every browser that posted a form has. */
  const csrfCookie = csrf.issue({ ip: '192.0.2.1', userAgent: '', secure: false }, 'form')
    .cookies[0].value;
  /**
   * The code page's service with what a refused code meets: an expired request, a code `consume`
   * refuses; its parts are the real ones.
   */
  function service(): SignUpCodeService {
    // Nothing else is reached by a refused code.
    const none = {} as never;
    const interactions = {
      findLive: () => Promise.resolve(null),
      checkFormFor: () => undefined,
      formFor: () => ({ token: 'token', cookies: [] }),
    } as unknown as PendingInteractions;
    const dataSource = {
      transaction: (work: (manager: unknown) => Promise<unknown>) => work({}),
    } as unknown as DataSource;
    // A wrong code and a decoy id (no row) are refused alike by the statement that counts tries.
    const codes = {
      consume: () => Promise.resolve({ kind: 'refused' }),
    } as unknown as OneTimeCodes;
    return new SignUpCodeService(
      interactions,
      new SignUpOffer(config, interactions, none),
      browsers,
      new SignUpAccounts(dataSource, codes, none, none),
      none,
      new SignUpViews(interactions),
    );
  }

  const browser = (signUpCookie?: string): BrowserContext => ({
    ip: '192.0.2.1',
    userAgent: '',
    csrfCookie,
    signUpCookie,
    secure: false,
  });

  /** Whether the promise has settled once pending callbacks ran. */
  async function settled(promise: Promise<unknown>): Promise<boolean> {
    let done = false;
    void promise.then(() => (done = true));
    await jest.advanceTimersByTimeAsync(0);
    return done;
  }

  describe('submitCode', () => {
    it.each([
      [
        'a wrong code or a decoy id, from the browser that asked',
        browsers.cookiesFor(browser(), ID)[0].value,
      ],
      ['any code from another browser', undefined],
    ])('answers %s only once the floor has passed', async (_case, cookie) => {
      const body = { request: '', csrf_token: 'token', id: ID, code: '123456' };
      const answer = service().submitCode(body, PageLanguage.OUTSIDE_PAGES, browser(cookie));
      expect(await settled(answer)).toBe(false);
      await jest.advanceTimersByTimeAsync(ANSWER_FLOOR_MS - 1);
      expect(await settled(answer)).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(await settled(answer)).toBe(true);
      expect((await answer).status).toBe(400);
    });
  });
});
