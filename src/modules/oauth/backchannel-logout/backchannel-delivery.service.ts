import { Inject, Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../../common/clock';
import { DEFAULT_ID_TOKEN_SIGNING_ALG } from '../../../common/crypto/signing-algs';
import { ShutdownState } from '../../../common/http/shutdown-state';
import { AppConfig } from '../../../config/app-config';
import { issuerUrl } from '../../signing-keys/issuers';
import { SigningKeysService } from '../../signing-keys/signing-keys.service';
import type { AddressPolicy } from '../../webhooks/webhook-address';
import { InFlight, type DeliveryEngine, type Started } from '../../webhooks/delivery-scheduler';
import {
  DELIVERY_TIMEOUT_MS,
  sendCheckedPost,
  type SendOutcome,
} from '../../webhooks/webhook-sender';
import { attemptResult } from './backchannel-outcome';
import { BackchannelLeases, type ClaimedLogout } from './backchannel-leases';
import { LOGOUT_TOKEN_TYPE, logoutTokenClaims } from './logout-token';

/** Logouts one instance sends at once, and so the most it claims at a time. */
export const MAX_CONCURRENT_LOGOUTS = 20;
/** A POST starts only while this much of the lease is left, so it ends before the lease does. */
const LEASE_MARGIN_MS = DELIVERY_TIMEOUT_MS + 5_000;

export const BACKCHANNEL_USER_AGENT = 'identity-service-backchannel-logout/1';

/**
 * The back-channel logout engine (docs/oidc.md, "Back-channel logout"): the queued logouts
 * (backchannel_logouts, written in the transaction that ends a session) are claimed under a
 * lease shared by every instance (BackchannelLeases) and POSTed as `logout_token=…` through the
 * webhook transport (sendCheckedPost: the address rules, a pinned connection, no redirects, the
 * deadline and the answer's cap). Each attempt signs a fresh token with the client's id_token
 * alg; the token is neither stored nor logged. The outcome rules are attemptResult's. The
 * scheduler (BackchannelScheduler) runs rounds every WEBHOOKS_POLL_MS; tests call runRound.
 */
@Injectable()
export class BackchannelDeliveryService implements DeliveryEngine {
  private readonly logger = new Logger('BackchannelLogout');
  private readonly addressPolicy: AddressPolicy;
  /** The deadline of one attempt: the webhook transport's (tests shorten it). */
  attemptTimeoutMs = DELIVERY_TIMEOUT_MS;
  /** The logouts being sent by this instance, by id; claims one after another. */
  private readonly inFlight: InFlight<string>;

  constructor(
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly signingKeys: SigningKeysService,
    private readonly leases: BackchannelLeases,
    shutdown: ShutdownState,
  ) {
    this.inFlight = new InFlight(MAX_CONCURRENT_LOGOUTS, shutdown);
    this.addressPolicy = {
      allowedPrivateHosts: config.webhooksAllowedPrivateHosts,
      allowLoopback: config.webhooksAllowInsecure,
    };
  }

  /** This instance's lease owner name. */
  get instanceId(): string {
    return this.leases.owner;
  }

  stop(): void {
    this.inFlight.stop();
  }

  drain(): Promise<void> {
    return this.inFlight.drain();
  }

  startDue(): Promise<Started> {
    return this.inFlight.claim(() => this.claimAndStart());
  }

  /** startDue, then waits for what it started: how many logouts it attempted. */
  async runRound(): Promise<{ served: number }> {
    const { deliveries } = await this.startDue();
    await Promise.all(deliveries);
    return { served: deliveries.length };
  }

  private get stopped(): boolean {
    return this.inFlight.stopped;
  }

  private async claimAndStart(): Promise<Started> {
    const room = this.inFlight.room;
    if (this.stopped || room <= 0) return { deliveries: [], full: room <= 0 };
    const claimed = await this.leases.claim(this.clock.now(), room, this.inFlight.busy);
    return {
      deliveries: claimed.map((logout) => this.begin(logout)),
      full: claimed.length === room,
    };
  }

  /** One logout's attempt, on its own: it never rejects, and always gives its lease back. */
  private begin(logout: ClaimedLogout): Promise<boolean> {
    const attempt = this.attempt(logout)
      .catch(async (error) => {
        this.logger.warn(`Back-channel logout ${logout.id}: attempt failed: ${String(error)}`);
        // The lease then expires on its own (LEASE_MS) if this fails too.
        await this.leases.release(logout.id).catch(() => undefined);
      })
      .then(() => false);
    return this.inFlight.track(logout.id, attempt);
  }

  private async attempt(logout: ClaimedLogout): Promise<void> {
    if (logout.url === null) {
      // The client's logout URI was removed after the logout was queued: nowhere to send it.
      await this.leases.record(logout, {
        status: 'abandoned',
        attempts: logout.attempts,
        next: null,
        statusCode: null,
        error: 'the client has no backchannel_logout_uri any more',
        at: this.clock.now(),
      });
      return;
    }
    const leaseLeft = logout.lease_until.getTime() - this.clock.now().getTime();
    if (this.stopped || leaseLeft <= LEASE_MARGIN_MS) {
      await this.leases.release(logout.id);
      return;
    }
    const outcome = await this.send(logout, logout.url);
    const now = this.clock.now();
    const result = attemptResult(outcome, logout.attempts, logout.created_at, now);
    await this.leases.record(logout, {
      ...result,
      statusCode: outcome.status,
      error: outcome.error,
      at: now,
    });
  }

  /** A fresh token for this attempt, POSTed as the only form field (section 2.5). */
  private async send(logout: ClaimedLogout, url: string): Promise<SendOutcome> {
    const claims = logoutTokenClaims(
      {
        // The issuer the client's authorization was sent to (the alias or the default).
        issuer: issuerUrl(this.config.publicBaseUrl, logout.issuer_path),
        clientId: logout.client_id,
        userId: logout.user_id,
        sid: logout.sid,
      },
      this.clock.now(),
    );
    const token = await this.signingKeys.sign(
      claims,
      logout.alg ?? DEFAULT_ID_TOKEN_SIGNING_ALG,
      LOGOUT_TOKEN_TYPE,
    );
    return sendCheckedPost(
      {
        url,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'user-agent': BACKCHANNEL_USER_AGENT,
        },
        body: new URLSearchParams({ logout_token: token }).toString(),
      },
      this.addressPolicy,
      this.attemptTimeoutMs,
    );
  }
}
