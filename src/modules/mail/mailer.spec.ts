import { Logger } from '@nestjs/common';
import { loadConfig } from '../../config/app-config';
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
