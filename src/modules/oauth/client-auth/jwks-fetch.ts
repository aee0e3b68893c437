import type { IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { MAX_JWKS_BYTES } from '../../applications/client-jwks';
import {
  pinnedLookup,
  resolveDeliveryAddress,
  type AddressPolicy,
  type CheckedAddress,
} from '../../webhooks/webhook-address';

/** Address lookup, connect and the whole answer must fit in this. */
export const JWKS_FETCH_TIMEOUT_MS = 5_000;

export const JWKS_USER_AGENT = 'identity-service-jwks/1';

/** A JWKS document as fetched: its JSON, and the max-age its Cache-Control gave (if any). */
export interface FetchedJwks {
  document: unknown;
  maxAgeSeconds: number | null;
}

/** Why a jwks_uri gave no usable document (logged at debug level by the caller). */
export class JwksFetchError extends Error {}

/**
 * GETs a client's jwks_uri under the rules of webhook deliveries (docs/webhooks.md, "Delivery
 * addresses"; the same checker, webhooks/webhook-address.ts, and the same settings): https only;
 * the host resolved once and refused when any of its addresses is loopback, private, link-local
 * or otherwise not public (unless WEBHOOKS_ALLOWED_PRIVATE_HOSTS names it, or loopback with
 * WEBHOOKS_ALLOW_INSECURE); the connection made to the checked address, so that a DNS answer
 * changing in between cannot swap it; redirects not followed; a status other than 200, a body
 * over MAX_JWKS_BYTES or anything slower than JWKS_FETCH_TIMEOUT_MS in all is a failure.
 */
export async function fetchJwks(
  uri: string,
  policy: AddressPolicy,
  timeoutMs = JWKS_FETCH_TIMEOUT_MS,
): Promise<FetchedJwks> {
  const url = new URL(uri);
  if (url.protocol !== 'https:') throw new JwksFetchError('jwks_uri is not https');
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    const checked = await untilAborted(resolveDeliveryAddress(url.hostname, policy), signal);
    const { status, cacheControl, body } = await untilAborted(get(url, checked, signal), signal);
    if (status !== 200) throw new JwksFetchError(`jwks_uri answered HTTP ${status}`);
    let document: unknown;
    try {
      document = JSON.parse(body);
    } catch {
      throw new JwksFetchError('jwks_uri did not answer JSON');
    }
    return { document, maxAgeSeconds: maxAge(cacheControl) };
  } catch (error) {
    const name = (error as { name?: unknown } | null)?.name;
    if (name === 'TimeoutError' || name === 'AbortError') {
      throw new JwksFetchError(`jwks_uri gave no answer within ${timeoutMs} ms`);
    }
    if (error instanceof JwksFetchError) throw error;
    throw new JwksFetchError(error instanceof Error ? error.message : String(error));
  }
}

/** `max-age=N` of a Cache-Control header; null without one (or with no-store / no-cache: 0). */
function maxAge(header: string | undefined): number | null {
  if (header === undefined) return null;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const match = /(?:^|,)\s*max-age\s*=\s*"?(\d{1,10})"?\s*(?:,|$)/i.exec(header);
  return match ? Number(match[1]) : null;
}

/** The lookup counts toward the time limit: a resolver that hangs is a timeout. */
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
  cacheControl: string | undefined;
  body: string;
}

/** One GET over node:https to the checked address (the lookup hook answers with it). */
function get(url: URL, checked: CheckedAddress, signal: AbortSignal): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        signal,
        lookup: pinnedLookup(checked),
        headers: {
          accept: 'application/jwk-set+json, application/json',
          'user-agent': JWKS_USER_AGENT,
        },
      },
      (response) => readAnswer(response, resolve, reject),
    );
    req.on('error', reject);
    req.end();
  });
}

function readAnswer(
  response: IncomingMessage,
  resolve: (answer: Answer) => void,
  reject: (error: Error) => void,
): void {
  const declared = Number(response.headers['content-length'] ?? 0);
  if (declared > MAX_JWKS_BYTES) {
    response.destroy();
    reject(new JwksFetchError(`jwks_uri answer is larger than ${MAX_JWKS_BYTES} bytes`));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  response.on('data', (chunk: Buffer) => {
    size += chunk.byteLength;
    if (size > MAX_JWKS_BYTES) {
      response.destroy();
      reject(new JwksFetchError(`jwks_uri answer is larger than ${MAX_JWKS_BYTES} bytes`));
      return;
    }
    chunks.push(chunk);
  });
  response.on('end', () => {
    const cacheControl = response.headers['cache-control'];
    resolve({
      status: response.statusCode ?? 0,
      cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
      body: Buffer.concat(chunks).toString('utf8'),
    });
  });
  response.on('error', reject);
  response.on('close', () => reject(new Error('the connection closed before the answer ended')));
}
