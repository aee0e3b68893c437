import { checkClientJwks, InvalidJwksError, type ClientJwks } from '../../applications/client-jwks';
import { JwksFetchError, type FetchedJwks } from './jwks-fetch';

/** A fetched JWKS is used this long at most, whatever its Cache-Control says. */
export const JWKS_MAX_AGE_SECONDS = 300;
/** ... and at least this long (a `max-age=0` or `no-store` would mean a fetch per request). */
export const JWKS_MIN_AGE_SECONDS = 30;
/** An unknown `kid` refetches the JWKS, at most once in this long per URI. */
export const JWKS_REFETCH_INTERVAL_SECONDS = 30;
/** URIs kept; the least recently fetched goes first. */
const MAX_ENTRIES = 1000;

interface Entry {
  jwks: ClientJwks;
  fetchedAt: number;
  freshUntil: number;
}

/**
 * The JWKS of clients registered with a jwks_uri, per instance (docs/oauth.md, "Client
 * authentication"): fetched on first use, kept for the document's Cache-Control max-age clamped
 * to JWKS_MIN_AGE_SECONDS..JWKS_MAX_AGE_SECONDS (the maximum without one), and fetched again once
 * when an assertion names a `kid` the cached set lacks (a client that rotated its keys), at most
 * every JWKS_REFETCH_INTERVAL_SECONDS so that made-up `kid`s cannot make the service fetch on
 * every request. Concurrent requests share one fetch. A document that is not a set of public
 * signing keys (private members included) is refused whole, as at registration. A failed fetch
 * is a failed authentication: an expired set is never used, so keys a client withdrew stop
 * working within JWKS_MAX_AGE_SECONDS.
 */
export class JwksCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<ClientJwks>>();

  constructor(
    private readonly fetcher: (uri: string) => Promise<FetchedJwks>,
    private readonly now: () => number,
  ) {}

  /** The client's keys; `refresh` when the cached set had no key for the assertion. */
  async keys(uri: string, refresh = false): Promise<ClientJwks> {
    const entry = this.entries.get(uri);
    const now = this.now();
    if (entry && now < entry.freshUntil) {
      if (!refresh || now - entry.fetchedAt < JWKS_REFETCH_INTERVAL_SECONDS * 1000) {
        return entry.jwks;
      }
    }
    return this.fetchOnce(uri);
  }

  private fetchOnce(uri: string): Promise<ClientJwks> {
    const running = this.inFlight.get(uri);
    if (running) return running;
    const work = this.fetch(uri).finally(() => this.inFlight.delete(uri));
    this.inFlight.set(uri, work);
    return work;
  }

  private async fetch(uri: string): Promise<ClientJwks> {
    this.entries.delete(uri);
    const { document, maxAgeSeconds } = await this.fetcher(uri);
    let jwks: ClientJwks;
    try {
      jwks = checkClientJwks(document);
    } catch (error) {
      if (error instanceof InvalidJwksError) throw new JwksFetchError(error.message);
      throw error;
    }
    const age = Math.min(
      Math.max(maxAgeSeconds ?? JWKS_MAX_AGE_SECONDS, JWKS_MIN_AGE_SECONDS),
      JWKS_MAX_AGE_SECONDS,
    );
    const fetchedAt = this.now();
    if (this.entries.size >= MAX_ENTRIES) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    this.entries.set(uri, { jwks, fetchedAt, freshUntil: fetchedAt + age * 1000 });
    return jwks;
  }
}
