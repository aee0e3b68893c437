import { Logger } from '@nestjs/common';
import { startMailbox, type TestMailbox } from '../../../test/support/smtp-server';
import { loadConfig } from '../../config/app-config';
import { MailNotSent } from './mail-message';
import { Mailer } from './mailer';

const message = {
  to: 'ann@example.test',
  subject: 'Code 123456',
  text: 'Your code: 123456',
  html: '',
};

describe('Mailer without SMTP_URL', () => {
  let warn: jest.SpyInstance;
  let error: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('writes the whole message to the log, marked as not sent, outside production', async () => {
    const mailer = new Mailer(loadConfig({ NODE_ENV: 'development' }));
    expect(mailer.mode).toBe('log');
    await mailer.send(message);
    const logged = String(warn.mock.calls[0][0]);
    expect(logged).toMatch(/^==== EMAIL NOT SENT \(no SMTP_URL; development only\) ====/);
    expect(logged).toContain('To: ann@example.test');
    expect(logged).toContain('Your code: 123456');
  });

  it('sends nothing and logs nothing of the message in production', async () => {
    const mailer = new Mailer(
      loadConfig({
        NODE_ENV: 'production',
        PUBLIC_BASE_URL: 'https://id.example.test',
        SESSION_SECRET: 'a-production-session-secret-of-enough-length',
        SIGNING_KEYS_SECRET: 'a-production-signing-keys-secret-of-enough-length',
      }),
    );
    expect(mailer.mode).toBe('off');
    await mailer.send(message);
    expect(warn).not.toHaveBeenCalled();
    const logged = error.mock.calls.map((call) => String(call[0])).join('\n');
    expect(logged).toContain('SMTP_URL is not set');
    expect(logged).not.toContain('123456');
    expect(logged).not.toContain('ann@example.test');
  });
});

/**
 * STARTTLS stripping (RFC 3207 section 6): a real SMTP server on loopback that offers no
 * STARTTLS, as a man in the middle would leave the server's EHLO reply, and accepts any AUTH.
 */
describe('Mailer over smtp:// without STARTTLS', () => {
  const PASSWORD = 'smtp-password-4f9c2e';
  let mailbox: TestMailbox;
  let mailer: Mailer | undefined;
  let warn: jest.SpyInstance;
  beforeEach(async () => {
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    mailbox = await startMailbox({ acceptAuth: true });
  });
  afterEach(async () => {
    mailer?.onApplicationShutdown();
    mailer = undefined;
    await mailbox.close();
    jest.restoreAllMocks();
  });
  const mailerWith = (env: Record<string, string>): Mailer => {
    const url = new URL(mailbox.url);
    url.username = 'mailer';
    url.password = PASSWORD;
    mailer = new Mailer(loadConfig({ NODE_ENV: 'test', SMTP_URL: url.href, ...env }));
    return mailer;
  };

  it('sends nothing in clear, neither AUTH nor the message, and fails with MailNotSent', async () => {
    const send = mailerWith({}).send(message);
    await expect(send).rejects.toBeInstanceOf(MailNotSent);
    await expect(send).rejects.toThrow(/STARTTLS/);
    expect(mailbox.logins).toEqual([]);
    expect(mailbox.received).toEqual([]);
    const sent = mailbox.clientBytes();
    expect(sent).toMatch(/^EHLO /);
    expect(sent).toContain('STARTTLS');
    for (const secret of [
      'AUTH',
      'MAIL FROM',
      Buffer.from(PASSWORD).toString('base64'),
      '123456',
    ]) {
      expect(sent).not.toContain(secret);
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it('delivers in clear with SMTP_ALLOW_PLAINTEXT=true, and says so at start', async () => {
    await mailerWith({ SMTP_ALLOW_PLAINTEXT: 'true' }).send(message);
    expect(mailbox.logins).toEqual(['mailer']);
    expect((await mailbox.next('ann@example.test')).text).toContain('Your code: 123456');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toMatch(
      /^SMTP_ALLOW_PLAINTEXT=true: mail to 127\.0\.0\.1 goes unencrypted/,
    );
    expect(String(warn.mock.calls[0][0])).not.toContain(PASSWORD);
  });

  it('lets no query string of SMTP_URL switch STARTTLS off', () => {
    for (const query of ['?requireTLS=false', '?ignoreTLS=true', '?tls.rejectUnauthorized=false']) {
      expect(() =>
        loadConfig({ SMTP_URL: `${mailbox.url}${query}`, SMTP_ALLOW_PLAINTEXT: 'true' }),
      ).toThrow(/SMTP_URL: must not have a query string/);
    }
  });
});
