import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message the loopback SMTP server received, as a mail client would read it. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO), lower-cased. */
  to: string[];
  /** The envelope's sender (MAIL FROM). */
  from: string;
  parsed: ParsedMail;
  subject: string;
  text: string;
  html: string;
}

/** A real SMTP server on 127.0.0.1 (the `smtp-server` package) that keeps what it receives. */
export interface TestMailbox {
  /** SMTP_URL for the service under test. */
  url: string;
  received: ReceivedMail[];
  /** The next message to `to` not yet taken (waits for it; fails the test after `timeoutMs`). */
  next: (to: string, timeoutMs?: number) => Promise<ReceivedMail>;
  /** Every byte clients sent this server, as text: what anyone on the path could read. */
  clientBytes: () => string;
  /** The user names of AUTH attempts (with `acceptAuth`), in order. */
  logins: string[];
  close: () => Promise<void>;
}

export interface MailboxOptions {
  /** Offer AUTH (over plain TCP too) and accept any user name and password. */
  acceptAuth?: boolean;
}

/**
 * Starts an SMTP server on a free loopback port: no STARTTLS (the test environment's
 * SMTP_ALLOW_PLAINTEXT lets the service speak plain SMTP to it), any sender, any recipient, no
 * authentication unless `acceptAuth`. Messages are parsed with mailparser, so a test reads the
 * subject, text and HTML parts as a mail client shows them.
 */
export async function startMailbox(options: MailboxOptions = {}): Promise<TestMailbox> {
  const received: ReceivedMail[] = [];
  const logins: string[] = [];
  let clientBytes = '';
  const taken = new Set<ReceivedMail>();
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];

  const deliver = (mail: ReceivedMail): void => {
    received.push(mail);
    const index = waiting.findIndex((w) => mail.to.includes(w.to));
    if (index >= 0) {
      taken.add(mail);
      waiting.splice(index, 1)[0].resolve(mail);
    }
  };

  const server = new SMTPServer({
    secure: false,
    disabledCommands: options.acceptAuth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, session, callback) {
      logins.push(auth.username ?? '');
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          deliver({
            to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            parsed,
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  server.server.on('connection', (socket: Socket) =>
    socket.on('data', (chunk: Buffer) => (clientBytes += chunk.toString('latin1'))),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    clientBytes: () => clientBytes,
    logins,
    next: (to, timeoutMs = 30_000) => {
      const address = to.toLowerCase();
      const ready = received.find((mail) => !taken.has(mail) && mail.to.includes(address));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise<ReceivedMail>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no email to ${address} within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiting.push({
          to: address,
          resolve: (mail) => {
            clearTimeout(timer);
            resolve(mail);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-digit code of a code email (from its plain-text part, English or Chinese). */
export function codeOf(mail: ReceivedMail): string {
  const match = /(?:Your code: |你的验证码：)(\d{6})/.exec(mail.text);
  if (!match) throw new Error(`no code in the email "${mail.subject}"`);
  return match[1];
}

/** The link of a code email (the first http(s) URL of its plain-text part). */
export function linkOf(mail: ReceivedMail): URL {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`no link in the email "${mail.subject}"`);
  return new URL(match[0]);
}
