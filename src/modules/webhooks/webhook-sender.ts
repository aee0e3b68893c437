import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Webhook } from 'standardwebhooks';
import {
  AddressPolicy,
  CheckedAddress,
  pinnedLookup,
  resolveDeliveryAddress,
} from './webhook-address';
import { isDelivered } from './webhook-message';

/** Connect plus the whole exchange must finish within this (docs/webhooks.md, "Timeouts"). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of a response body is read (for the delivery log); the rest is dropped. */
export const MAX_RESPONSE_BYTES = 4096;
/** Errors in the delivery log are cut to this length (the column's). */
export const MAX_ERROR_LENGTH = 500;

export const WEBHOOK_USER_AGENT = 'identity-service-webhooks/1';

/** One signed POST to make. */
export interface OutgoingWebhook {
  url: string;
  /**
   * The secrets in clear, `whsec_…`: the current one, then the one before a rotation while it
   * still signs. Each gives one `v1,` signature; the header lists them separated by a space.
   */
  secrets: string[];
  /** webhook-id: the event's stable id, the same on every retry. */
  messageId: string;
  body: string;
}

/** What came of one POST: a status (any), or an error when no response arrived. */
export interface SendOutcome {
  status: number | null;
  retryAfter: string | null;
  error: string | null;
  latencyMs: number;
}

/**
 * POSTs one event with the Standard Webhooks headers (webhook-id, webhook-timestamp,
 * webhook-signature, signed by the `standardwebhooks` library) through sendCheckedPost: the
 * connection goes to the checked address, with the URL's host name kept for the Host header and
 * TLS. The signature timestamp is the wall clock, which is what the receiver checks it against.
 */
export function sendWebhook(
  message: OutgoingWebhook,
  policy: AddressPolicy,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendOutcome> {
  const signedAt = new Date();
  const signature = message.secrets
    .map((secret) => new Webhook(secret).sign(message.messageId, signedAt, message.body))
    .join(' ');
  return sendCheckedPost(
    {
      url: message.url,
      headers: {
        'content-type': 'application/json',
        'user-agent': WEBHOOK_USER_AGENT,
        'webhook-id': message.messageId,
        'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body: message.body,
    },
    policy,
    timeoutMs,
  );
}

/** One POST to make: its URL, headers and body, as sent. */
export interface OutgoingPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * The transport every delivery of the service shares (webhooks, back-channel logout tokens):
 * the host resolved and checked first (webhook-address.ts), the connection made to the checked
 * address, redirects not followed (a 3xx is a failure like any other non-2xx), the whole
 * exchange bounded by `timeoutMs` and at most MAX_RESPONSE_BYTES of the answer read. Never
 * throws: a failure without an answer is an outcome with an error.
 */
export async function sendCheckedPost(
  outgoing: OutgoingPost,
  policy: AddressPolicy,
  timeoutMs = DELIVERY_TIMEOUT_MS,
): Promise<SendOutcome> {
  const started = performance.now();
  const latency = (): number => Math.round(performance.now() - started);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const url = new URL(outgoing.url);
    const checked = await untilAborted(resolveDeliveryAddress(url.hostname, policy), signal);
    // The race settles the exchange at the deadline whatever the socket does (a receiver that
    // accepts and never answers, or sends an endless body); the signal also destroys the socket.
    const response = await untilAborted(
      post(url, checked, signal, { ...outgoing.headers, body: outgoing.body }),
      signal,
    );
    const ok = isDelivered(response.status);
    return {
      status: response.status,
      retryAfter: response.retryAfter,
      error: ok
        ? null
        : truncate(`HTTP ${response.status}${response.text ? `: ${response.text}` : ''}`),
      latencyMs: latency(),
    };
  } catch (error) {
    return {
      status: null,
      retryAfter: null,
      error: truncate(describe(error, timeoutMs)),
      latencyMs: latency(),
    };
  }
}

/** The lookup counts toward the exchange's time limit: a resolver that hangs is a timeout. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      signal.throwIfAborted();
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
    }),
  ]);
}

interface Answer {
  status: number;
  retryAfter: string | null;
  text: string;
}

/**
 * One POST over node:http(s), connected to the checked address: the `lookup` hook answers with
 * it instead of asking DNS again (an IP literal host is not looked up at all).
 */
function post(
  url: URL,
  checked: CheckedAddress,
  signal: AbortSignal,
  fields: Record<string, string> & { body: string },
): Promise<Answer> {
  const { body, ...headers } = fields;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<Answer>((resolve, reject) => {
    const request = send(
      url,
      {
        method: 'POST',
        signal,
        lookup: pinnedLookup(checked),
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = (): void => {
          response.destroy();
          const retryAfter = response.headers['retry-after'];
          resolve({
            status: response.statusCode ?? 0,
            retryAfter: typeof retryAfter === 'string' ? retryAfter : null,
            text: Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8'),
          });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          if (size >= MAX_RESPONSE_BYTES) finish();
        });
        response.on('end', finish);
        response.on('error', reject);
        // Closed before its end without an error (a no-op once settled).
        response.on('close', () =>
          reject(new Error('the connection closed before the answer ended')),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function describe(error: unknown, timeoutMs: number): string {
  // By name: the signal's DOMException may come from another realm than Error (test runners).
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') {
    return `no response within ${timeoutMs} ms`;
  }
  const cause = error instanceof Error ? (error.cause as Error | undefined) : undefined;
  return cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function truncate(text: string): string {
  return text.length > MAX_ERROR_LENGTH ? text.slice(0, MAX_ERROR_LENGTH) : text;
}
