import { Aead } from '../../../common/crypto/aead';

/**
 * The per-attempt secrets of one trip to an upstream provider. They travel sealed in an
 * HttpOnly cookie of the browser that started the trip (like the pending request, nothing is
 * stored for an attempt), so only that browser can finish it: `state` in the provider's answer
 * must equal the one sealed here.
 */
export interface UpstreamAttempt {
  /** sign-in continues an authorization request; bind adds the identity to a signed-in user. */
  purpose: 'sign-in' | 'bind';
  providerId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  /** sign-in: the sealed pending authorization request the trip continues. */
  request?: string;
  /** bind: the signed-in user who asked; the callback must come with that user's session. */
  userId?: string;
  /** bind without a request: the page the browser returns to (the console's by default). */
  returnTo?: BindReturnPage;
  /** Unix time in seconds after which the answer is refused. */
  exp: number;
}

/** The pages a binding started from an account page returns to (never a URL from the request). */
export const BIND_RETURN_PAGES = {
  console: '/console/account',
  account: '/account?done=upstream_connected',
} as const;
export type BindReturnPage = keyof typeof BIND_RETURN_PAGES;

/** Long enough to sign in at a provider (and pass its 2FA), short enough to be useless later. */
export const ATTEMPT_TTL_SECONDS = 600;
const MAX_SEALED_LENGTH = 8000;

// Domain separation from the pending-request key (oauth/authorize/sealed-request.ts), though both come from
// SESSION_SECRET: an attempt cannot be passed off as a request, nor the reverse.
const HKDF_INFO = 'idsvc upstream sign-in attempt aes-256-gcm v1';

/** The attempt sealed with AES-256-GCM under its own key derived from SESSION_SECRET. */
export class AttemptSealer {
  private readonly aead: Aead;

  constructor(secret: string) {
    this.aead = new Aead(secret, HKDF_INFO, 'u1.');
  }

  seal(attempt: UpstreamAttempt): string {
    return this.aead.seal(JSON.stringify(attempt));
  }

  /** The attempt, or null for anything this key did not seal (tampered, truncated, garbage). */
  open(value: unknown): UpstreamAttempt | null {
    const text = this.aead.open(value, undefined, MAX_SEALED_LENGTH);
    if (text === null) return null;
    try {
      const parsed = JSON.parse(text) as Partial<UpstreamAttempt> | null;
      return parsed && typeof parsed.state === 'string' && typeof parsed.exp === 'number'
        ? (parsed as UpstreamAttempt)
        : null;
    } catch {
      return null;
    }
  }
}
