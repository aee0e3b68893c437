import { DEFAULT_LOCALE } from '../../../../src/common/i18n/i18n';
import { DataSource } from 'typeorm';
import { codeMail } from '../../../../src/modules/interaction/one-time-codes/code-mail';
import { CODES_PER_EMAIL } from '../../../../src/modules/interaction/one-time-codes/code-quota';
import {
  CODE_TTL_SECONDS,
  MAX_CODE_ATTEMPTS,
  OneTimeCodes,
} from '../../../../src/modules/interaction/one-time-codes/one-time-codes.service';
import { MailNotSent } from '../../../../src/modules/mail/mail-message';
import { Mailer } from '../../../../src/modules/mail/mailer';
import { useMailboxBed } from '../../../support/mailbox-bed';
import { createTestApp } from '../../../support/test-app';
import { codeOf, linkOf, startMailbox } from '../../../support/smtp-server';

// The emailed one-time codes and the mail they travel in, against a real SMTP server on loopback
// and the real database: hashing at rest, single use, tries, expiry, and the per-address limit.

describe('one-time codes and mail', () => {
  let codes: OneTimeCodes;
  let db: DataSource;

  const bed = useMailboxBed({ env: { MAIL_FROM: '"Example ID" <id@example.test>' } });
  beforeAll(() => {
    codes = bed.t.app.get(OneTimeCodes);
    db = bed.t.dataSource;
  });

  async function newUser(name: string): Promise<string> {
    const [row] = await db.query<{ id: string }[]>(
      `INSERT INTO users (username, email) VALUES ($1, $2) RETURNING id`,
      [name, `${name}@example.test`],
    );
    return row.id;
  }

  const issue = async (email: string, userId: string | null, ip = '192.0.2.1') => {
    const outcome = await codes.issue({
      purpose: 'password_reset',
      email,
      userId,
      payload: { note: 'kept' },
      clientAddress: ip,
    });
    if (outcome.kind !== 'issued') throw new Error('expected a code');
    return outcome;
  };
  const consume = (id: unknown, code: unknown, purpose = 'password_reset' as const) =>
    db.transaction((manager) => codes.consume(manager, purpose, id, code));

  it('sends a code email over SMTP in plain text and HTML, from MAIL_FROM', async () => {
    await bed.t.app.get(Mailer).send(
      codeMail('password_reset', {
        to: 'Carol@Example.test',
        locale: DEFAULT_LOCALE,
        site: 'id.example.test',
        code: '042917',
        link: 'https://id.example.test/oauth2/reset-password?code=042917',
      }),
    );
    const mail = await bed.mailbox.next('carol@example.test');
    expect(mail.from).toBe('id@example.test');
    expect(mail.parsed.from?.text).toBe('"Example ID" <id@example.test>');
    expect(mail.subject).toBe('042917 is your code to reset your password at id.example.test');
    expect(codeOf(mail)).toBe('042917');
    expect(linkOf(mail).pathname).toBe('/oauth2/reset-password');
    expect(mail.text).toContain(`for ${CODE_TTL_SECONDS / 60} minutes`);
    expect(mail.html).toContain('042917');
    expect(mail.html).toContain('href="https://id.example.test/oauth2/reset-password?code=042917"');
  });

  it('escapes what it puts into the HTML part', () => {
    const message = codeMail('email_verification', {
      to: 'dave@example.test',
      locale: DEFAULT_LOCALE,
      site: 'id.example.test',
      code: '111111',
      link: 'https://id.example.test/x',
      applicationName: '<script>alert(1)</script>',
    });
    expect(message.html).not.toContain('<script>');
    expect(message.html).toContain('&lt;script&gt;');
    expect(message.text).toContain('<script>alert(1)</script>');
  });

  it('fails with MailNotSent when the SMTP server cannot be reached', async () => {
    const closed = await startMailbox();
    await closed.close();
    const other = await createTestApp({ env: { SMTP_URL: closed.url } });
    try {
      const message = { to: 'x@example.test', subject: 's', text: 't', html: '<p>t</p>' };
      await expect(other.app.get(Mailer).send(message)).rejects.toBeInstanceOf(MailNotSent);
    } finally {
      await other.close();
    }
  });

  it('keeps only an HMAC of the code, and accepts the code once, with its payload', async () => {
    const userId = await newUser('erin');
    const { id, code } = await issue('Erin@Example.test', userId);
    const [row] = await db.query<{ code_hash: string; email: string }[]>(
      'SELECT code_hash, email FROM one_time_codes WHERE id = $1',
      [id],
    );
    expect(row.email).toBe('erin@example.test');
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);

    const accepted = await consume(id, ` ${code.slice(0, 3)} ${code.slice(3)} `);
    expect(accepted).toEqual({
      kind: 'accepted',
      code: {
        id,
        purpose: 'password_reset',
        userId,
        email: 'erin@example.test',
        payload: { note: 'kept' },
      },
    });
    expect(await consume(id, code)).toEqual({ kind: 'refused' });
  });

  it('accepts one of two simultaneous entries of the right code', async () => {
    const { id, code } = await issue('frank@example.test', await newUser('frank'));
    const outcomes = await Promise.all([consume(id, code), consume(id, code), consume(id, code)]);
    expect(outcomes.filter((o) => o.kind === 'accepted')).toHaveLength(1);
  });

  it(`spends a code after ${MAX_CODE_ATTEMPTS} wrong tries, malformed ones included`, async () => {
    const userId = await newUser('gina');
    const tryWrong = async (id: string, code: string, times: number) => {
      const wrong = code === '000000' ? '000001' : '000000';
      for (let i = 0; i < times; i++) {
        expect(await consume(id, i === 0 ? 'abc' : wrong)).toEqual({ kind: 'refused' });
      }
    };
    const first = await issue('gina@example.test', userId);
    await tryWrong(first.id, first.code, MAX_CODE_ATTEMPTS - 1);
    expect((await consume(first.id, first.code)).kind).toBe('accepted');

    const second = await issue('gina@example.test', userId);
    await tryWrong(second.id, second.code, MAX_CODE_ATTEMPTS);
    expect(await consume(second.id, second.code)).toEqual({ kind: 'refused' });
  });

  it('refuses an expired code, a code for another purpose and a made-up id', async () => {
    const userId = await newUser('hank');
    const { id, code } = await issue('hank@example.test', userId);
    expect(await consume(id, code, 'email_verification' as 'password_reset')).toEqual({
      kind: 'refused',
    });
    expect(await consume('not-a-uuid', code)).toEqual({ kind: 'refused' });
    expect(await consume('0b8f6c1e-8d3e-4b5e-9a77-000000000000', code)).toEqual({
      kind: 'refused',
    });
    bed.t.clock.advance(CODE_TTL_SECONDS * 1000 + 1);
    expect(await consume(id, code)).toEqual({ kind: 'refused' });
  });

  it('stops an earlier code of the same purpose and account when a new one is sent', async () => {
    const userId = await newUser('iris');
    const first = await issue('iris@example.test', userId);
    const second = await issue('iris@example.test', userId);
    expect(await consume(first.id, first.code)).toEqual({ kind: 'refused' });
    expect((await consume(second.id, second.code)).kind).toBe('accepted');
  });

  it(`sends at most ${CODES_PER_EMAIL} codes an hour to one address, decoys counted alike`, async () => {
    const userId = await newUser('jack');
    for (let i = 0; i < CODES_PER_EMAIL - 1; i++) {
      await issue('jack@example.test', userId, `198.51.100.${i + 1}`);
    }
    // A request for the same address that sends nothing (no account) counts too.
    expect((await codes.decoy('JACK@example.test', '198.51.100.99')).kind).toBe('allowed');
    const refused = await codes.issue({
      purpose: 'password_reset',
      email: 'jack@example.test',
      userId,
      clientAddress: '198.51.100.100',
    });
    expect(refused).toEqual({ kind: 'throttled', retryAfterSeconds: expect.any(Number) });
    // Another address is not affected.
    expect((await codes.decoy('kate@example.test', '198.51.100.100')).kind).toBe('allowed');
  });
});
