import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { newOpaqueToken } from '../../../common/crypto/opaque-token';
import { sha256Hex } from '../../../common/crypto/hash';
import { AppConfig } from '../../../config/app-config';
import type { IssuerPath } from '../../signing-keys/issuers';
import { authenticateClient, type OAuthClient } from '../client-auth/authenticate-client';
import { clientCredentials, type ClientAuthParameter } from '../client-auth/client-credentials';
import { OAuthError, RefusedRequestError } from '../protocol/oauth-error';
import { take, type FormParams } from '../protocol/params';
import { DEFAULT_SCOPE, formatScope, OAUTH_SCOPES, splitScope } from '../protocol/scopes';
import { displayUserCode, newUserCode, userCodeHash, userCodeKey } from './user-code';

/** The device authorization endpoint's own parameters (RFC 8628 section 3.1). */
export const DEVICE_AUTHORIZATION_PARAMETERS = ['scope'] as const;
export type DeviceAuthorizationParameter =
  ClientAuthParameter | (typeof DEVICE_AUTHORIZATION_PARAMETERS)[number];

/** RFC 8628 section 3.2: the answer. */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** Seconds a device waits between polls (RFC 8628 section 3.2), and what each slow_down adds. */
export const DEVICE_POLL_INTERVAL_SECONDS = 5;

/** Where the person enters the code (interaction/device/). */
export const DEVICE_PAGE_PATH = '/device';

/** Draws another user code when a new one collides with a stored one (20^8 codes: rarely). */
const USER_CODE_ATTEMPTS = 5;

/**
 * POST /oauth2/device_authorization (RFC 8628 section 3.1; docs/oauth.md, "Device
 * authorization grant"): the client authenticates as at the token endpoint (a `none` client by
 * its client_id), must be registered for the grant (`device_code_grant`, else
 * unauthorized_client), and names scopes this service defines (else invalid_scope). The answer's
 * device code and user code are stored only as SHA-256 hashes.
 */
@Injectable()
export class DeviceAuthorizationService {
  /** The key user codes are stored under (user-code.ts). */
  private readonly userCodeKey: Buffer;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.userCodeKey = userCodeKey(config.sessionSecret);
  }

  async authorize(
    params: FormParams<DeviceAuthorizationParameter>,
    authorization: string | undefined,
    issuerPath: IssuerPath | null = null,
  ): Promise<DeviceAuthorizationResponse> {
    const client = await authenticateClient(
      clientCredentials(params, authorization),
      this.dataSource,
      'device_authorization_endpoint',
    );
    // The form's own parameter is read first: a malformed one is invalid_request for any client.
    const { scope } = take(params, ['scope']);
    const unregistered = unregisteredForDeviceGrant(client);
    if (unregistered) throw unregistered;
    const granted = deviceScope(scope);
    const deviceCode = newOpaqueToken();
    const now = this.clock.now();
    const expiresIn = this.config.deviceCodeTtlSeconds;
    const userCode = await this.insert(client.id, deviceCode, granted, issuerPath, now, expiresIn);
    const verificationUri = `${this.config.publicBaseUrl}${DEVICE_PAGE_PATH}`;
    const shown = displayUserCode(userCode);
    return {
      device_code: deviceCode,
      user_code: shown,
      verification_uri: verificationUri,
      verification_uri_complete: `${verificationUri}?user_code=${shown}`,
      expires_in: expiresIn,
      interval: DEVICE_POLL_INTERVAL_SECONDS,
    };
  }

  /**
   * Stores the codes' hashes unless the client already has DEVICE_MAX_PENDING_PER_CLIENT codes
   * waiting (429: the count and the insert are one statement, so racing requests at the cap may
   * pass it by a few, as for pushed requests); a user code that collides with a stored one is
   * drawn again.
   */
  private async insert(
    applicationId: number,
    deviceCode: string,
    scope: string,
    issuerPath: IssuerPath | null,
    now: Date,
    expiresIn: number,
  ): Promise<string> {
    for (let attempt = 0; attempt < USER_CODE_ATTEMPTS; attempt += 1) {
      const userCode = newUserCode();
      const rows = await this.dataSource.query<unknown[]>(
        `INSERT INTO oauth_device_codes
           (device_code_hash, user_code_hash, application_id, scope, interval_seconds, issuer_path,
            expires_at, created_at)
         SELECT $1, $2, $3::integer, $4, $5::integer, $6, $7::timestamptz, $8::timestamptz
         WHERE (SELECT count(*) FROM oauth_device_codes
           WHERE application_id = $3 AND status = 'pending' AND expires_at > $8) < $9
         ON CONFLICT (user_code_hash) DO NOTHING RETURNING id`,
        [
          sha256Hex(deviceCode),
          userCodeHash(userCode, this.userCodeKey),
          applicationId,
          scope,
          DEVICE_POLL_INTERVAL_SECONDS,
          issuerPath,
          new Date(now.getTime() + expiresIn * 1000),
          now,
          this.config.deviceMaxPendingPerClient,
        ],
      );
      if (rows.length > 0) return userCode;
      if (await this.atCap(applicationId, now)) {
        throw new RefusedRequestError(
          'Too many device authorizations of this client are waiting; answer them or let them expire',
          429,
        );
      }
    }
    throw new OAuthError('temporarily_unavailable', 'No free user code; try again');
  }

  private async atCap(applicationId: number, now: Date): Promise<boolean> {
    const [row] = await this.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM oauth_device_codes
       WHERE application_id = $1 AND status = 'pending' AND expires_at > $2`,
      [applicationId, now],
    );
    return row.n >= this.config.deviceMaxPendingPerClient;
  }
}

/**
 * RFC 8628 section 3.1 / RFC 6749 section 5.2: the error for a client not registered for the
 * grant (`deviceCodeGrant` of its authenticated row), the same at both endpoints; null when it is.
 */
export function unregisteredForDeviceGrant(client: OAuthClient): OAuthError | null {
  return client.deviceCodeGrant
    ? null
    : new OAuthError(
        'unauthorized_client',
        'This client is not registered for the device authorization grant',
      );
}

/**
 * The scope of a device authorization in canonical form: DEFAULT_SCOPE when none is sent. Unlike
 * /authorize, which ignores values it does not define, a value this service does not define is
 * invalid_scope (RFC 6749 section 5.2): the device shows no page where a narrower grant could be
 * explained, so it learns at once.
 */
export function deviceScope(raw: string | undefined): string {
  const names = splitScope(raw ?? null);
  if (names.length === 0) return DEFAULT_SCOPE;
  const unknown = names.filter((name) => !(OAUTH_SCOPES as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.join(' ')}`);
  }
  return formatScope(names);
}
