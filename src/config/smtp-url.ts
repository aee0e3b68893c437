import { isIP } from 'node:net';

/** Where and how the service reaches its SMTP server, read from SMTP_URL. */
export interface SmtpServer {
  /** smtps://: TLS from the first byte; smtp://: plain TCP upgraded with STARTTLS. */
  implicitTls: boolean;
  host: string;
  /** Absent: nodemailer's default (465 implicit TLS, 587 otherwise). */
  port: number | undefined;
  auth: { user: string; pass: string } | undefined;
}

/**
 * SMTP_URL as the transport's settings, or the rule it breaks. The URL gives the server and the
 * credentials only: nodemailer would read options from a query string (`?requireTLS=false`,
 * `?ignoreTLS=true`, `?tls.rejectUnauthorized=false`) and let them win over the service's own,
 * so a query or fragment is refused rather than passed on. No message here contains the URL.
 */
export function parseSmtpUrl(value: string): SmtpServer | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL address';
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    return 'must start smtp:// or smtps://';
  if (url.search !== '' || url.hash !== '') {
    return "must not have a query string or fragment (TLS is the service's to set; SMTP_ALLOW_PLAINTEXT)";
  }
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(url.username);
    pass = decodeURIComponent(url.password);
  } catch {
    return 'has a user name or password that is not valid percent-encoding';
  }
  return {
    implicitTls: url.protocol === 'smtps:',
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? undefined : Number(url.port),
    auth: user !== '' || pass !== '' ? { user, pass } : undefined,
  };
}

/**
 * A loopback host: an address of 127.0.0.0/8, ::1, or the name `localhost` (which the service's
 * own host resolves; whoever can change that already holds the host and its environment).
 */
export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  return isIP(host) === 6 && host === '::1';
}
