import type { EntityManager } from 'typeorm';
import { sha256Hex } from '../../../../common/crypto/hash';
import { newOpaqueToken } from '../../../../common/crypto/opaque-token';
import { relationUsable } from '../../../users/relation-sql';
import {
  DEVICE_PAGE_PATH,
  unregisteredForDeviceGrant,
} from '../../device/device-authorization.service';
import { OAuthError, invalidRequest } from '../../protocol/oauth-error';
import { tokenBinding } from '../token-binding';
import type { TokenResponse } from '../token-issuer';
import type { GrantContext, GrantType } from './grant-type';

// grant_type=urn:ietf:params:oauth:grant-type:device_code (RFC 8628 section 3.4): its parameter,
// its typed request and its handler (docs/oauth.md, "Device authorization grant").

export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** The parameters of the device access token request. */
export const DEVICE_CODE_PARAMETERS = ['device_code'] as const;
type Parameter = (typeof DEVICE_CODE_PARAMETERS)[number];

export interface DeviceCodeRequest {
  deviceCode: string;
}

/** What every slow_down adds to the code's interval (RFC 8628 section 3.5). */
export const SLOW_DOWN_SECONDS = 5;

/** The device row as one poll finds it, after the poll was recorded. */
interface Polled {
  id: string;
  status: 'pending' | 'approved' | 'denied' | 'redeemed';
  expired: boolean;
  too_soon: boolean;
  application_id: number;
  user_id: string | null;
  scope: string;
  auth_time: Date | null;
  auth_method: string | null;
  issuer_path: string | null;
}

/**
 * One poll, one statement: the row of this client's device code is locked, the poll's time
 * recorded and, when it comes sooner than the interval after the previous one, the interval
 * grows by SLOW_DOWN_SECONDS; an approved code polled in time is spent (`redeemed`) by the same
 * statement. The row's previous state is returned: what the answer is. Every instance polls the
 * same row, so the interval holds across instances.
 */
const POLL_SQL = `WITH polled AS (UPDATE oauth_device_codes d
  SET last_polled_at = $3,
      interval_seconds = d.interval_seconds + CASE WHEN p.too_soon THEN ${SLOW_DOWN_SECONDS} ELSE 0 END,
      status = CASE WHEN p.status = 'approved' AND NOT p.too_soon AND NOT p.expired
                    THEN 'redeemed' ELSE p.status END
  FROM (
    SELECT id, status, expires_at <= $3 AS expired,
      (last_polled_at IS NOT NULL AND last_polled_at > $3 - make_interval(secs => interval_seconds)) AS too_soon
    FROM oauth_device_codes WHERE device_code_hash = $1 AND application_id = $2 FOR UPDATE
  ) p
  WHERE d.id = p.id
  RETURNING d.id::text AS id, p.status, p.expired, p.too_soon, d.application_id, d.user_id::text AS user_id,
    d.scope, d.auth_time, d.auth_method, d.issuer_path)
  SELECT * FROM polled`;

/**
 * The spent approval may still issue: the application enabled and registered for the grant, the
 * user's relation enabled with its authorization standing (rules/check-relation.ts).
 */
const USABLE_SQL = `SELECT 1 FROM applications a
  JOIN app_users au ON au.application_id = a.id AND au.user_id = $2
  WHERE a.id = $1 AND a.enabled AND a.device_code_grant AND a.security_profile IS NULL
    AND ${relationUsable('au')}`;

/**
 * The family's origin: a consumed oauth_codes row holding what the id_tokens of the family
 * repeat (the approving sign-in's time and method, the issuer; no nonce), so the tokens are
 * issued, refreshed, revoked and purged exactly as those of a code exchange. Its code_hash is of
 * a random value no one holds: it can never be redeemed as an authorization code.
 */
const ORIGIN_SQL = `INSERT INTO oauth_codes (code_hash, application_id, user_id, redirect_uri,
    code_challenge, scope, nonce, auth_time, auth_method, acr, issuer_path, expires_at,
    consumed_at, created_at)
  VALUES ($1, $2, $3, $4, NULL, $5, NULL, $6, $7, NULL, $8, $9, $9, $9)
  RETURNING id::text AS id`;

const unknownCode = (): OAuthError =>
  new OAuthError('invalid_grant', 'The device code is invalid or already used');

export const deviceCodeGrant: GrantType<Parameter, DeviceCodeRequest> = {
  parameters: DEVICE_CODE_PARAMETERS,

  request: ({ device_code: deviceCode }) =>
    deviceCode === undefined ? invalidRequest('device_code is required') : { deviceCode },

  // Always the general path: the client is authenticated (a `none` one by its client_id) first.
  asPublicClient: () => Promise.resolve(null),

  handle: async (context, client, request, jkt) => {
    const unregistered = unregisteredForDeviceGrant(client);
    if (unregistered) return unregistered;
    const { dataSource } = context;
    const outcome = await dataSource.transaction(async (manager) => {
      const rows = await manager.query<Polled[]>(POLL_SQL, [
        sha256Hex(request.deviceCode),
        client.id,
        context.clock.now(),
      ]);
      const polled = rows[0];
      if (!polled || polled.status === 'redeemed') return unknownCode();
      if (polled.expired) {
        return new OAuthError('expired_token', 'The device code has expired');
      }
      if (polled.too_soon) {
        return new OAuthError('slow_down', 'Polling too fast: wait 5 seconds more between polls');
      }
      if (polled.status === 'pending') {
        return new OAuthError('authorization_pending', 'The user has not answered yet');
      }
      if (polled.status === 'denied') {
        return new OAuthError('access_denied', 'The user denied the authorization');
      }
      return issue(context, manager, polled, tokenBinding(jkt, client.clientAuthMethod === 'none'));
    });
    if (outcome instanceof OAuthError) return outcome;
    // OIDC Core 3.1.3.3: with openid, the id_token (auth_time and amr of the approving sign-in;
    // no nonce: the device sent none; no sid: the grant is not part of a browser session).
    return context.idTokens.attach(outcome.response, {
      userId: outcome.userId,
      applicationId: outcome.applicationId,
      codeId: outcome.codeId,
      withNonce: false,
    });
  },
};

interface Issued {
  response: TokenResponse;
  userId: string;
  applicationId: number;
  codeId: string;
}

/** The spent approval's tokens, in the poll's transaction; invalid_grant when it may not issue. */
async function issue(
  context: GrantContext,
  manager: EntityManager,
  polled: Polled,
  binding: ReturnType<typeof tokenBinding>,
): Promise<Issued | OAuthError> {
  const userId = polled.user_id;
  if (userId === null) return unknownCode();
  const usable = await manager.query<unknown[]>(USABLE_SQL, [polled.application_id, userId]);
  if (usable.length === 0) {
    return new OAuthError(
      'invalid_grant',
      "The application or the user's access to it is disabled, or the authorization was revoked",
    );
  }
  const now = context.clock.now();
  const [origin] = await manager.query<{ id: string }[]>(ORIGIN_SQL, [
    sha256Hex(newOpaqueToken()),
    polled.application_id,
    userId,
    DEVICE_PAGE_PATH,
    polled.scope,
    polled.auth_time,
    polled.auth_method,
    polled.issuer_path,
    now,
  ]);
  const response = await context.issuer.issue(
    manager,
    {
      applicationId: polled.application_id,
      userId,
      scope: polled.scope,
      codeId: origin.id,
      binding,
    },
    'token_issued',
  );
  return { response, userId, applicationId: polled.application_id, codeId: origin.id };
}
