import type {
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import type { ConsoleClient } from './console';
import {
  SoftwareAuthenticator,
  type AuthenticatorSettings,
  type CeremonyOverrides,
} from './software-authenticator';

/** The console's origin in e2e tests (PUBLIC_BASE_URL of test-env.ts). */
export const CONSOLE_ORIGIN = 'http://127.0.0.1:3000';
export const CONFIRMATION_HEADER = 'X-Passkey-Confirmation';

/** A software authenticator in a browser on the console's origin. */
export function newAuthenticator(
  settings: Partial<AuthenticatorSettings> = {},
): SoftwareAuthenticator {
  return new SoftwareAuthenticator({ origin: CONSOLE_ORIGIN, ...settings });
}

export interface PasskeyBody {
  id: string;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
  backedUp: boolean;
  transports: string[];
}

/**
 * Registers a passkey of `authenticator` for the signed-in client through the console API
 * (options, then the attestation), expecting success. `confirmation` is the passkey.register
 * token a second or later passkey needs.
 */
export async function registerPasskey(
  client: ConsoleClient,
  authenticator: SoftwareAuthenticator,
  options: { confirmation?: string; name?: string } = {},
): Promise<PasskeyBody> {
  const start = client.request('post', '/api/console/account/passkeys/options');
  if (options.confirmation) start.set(CONFIRMATION_HEADER, options.confirmation);
  const started = await start.send({}).expect(200);
  const body = started.body as {
    ceremonyId: string;
    options: PublicKeyCredentialCreationOptionsJSON;
  };
  const done = await client
    .request('post', '/api/console/account/passkeys')
    .send({
      ceremonyId: body.ceremonyId,
      name: options.name ?? 'Laptop',
      response: authenticator.createCredential(body.options),
    })
    .expect(201);
  return done.body as PasskeyBody;
}

export interface ConfirmationRequestBody {
  action: string;
  applicationId?: number;
  keyId?: number;
  passkeyId?: string;
  upstreamIdentityId?: number;
  targetUserId?: string;
  role?: string;
  /** client_settings.update: the client settings the confirmed PATCH sends. */
  settings?: {
    redirectUris?: string[];
    postLogoutRedirectUris?: string[];
    clientAuthMethod?: string;
    backchannelLogoutUri?: string | null;
  };
  /** upstream.bind: the provider. */
  providerId?: string;
  /** webhook.* but webhook.create: the endpoint. */
  webhookId?: number;
  /** webhook.create, webhook.update_url: the URL the request sends. */
  url?: string;
  /** webhook.replay: where the replay starts (exactly one). */
  fromEventId?: number;
  fromTime?: string;
}

/** POST /api/console/confirmations, expecting 201: the id and request options. */
export async function beginConfirmation(
  client: ConsoleClient,
  body: ConfirmationRequestBody,
): Promise<{
  confirmationId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
  expiresAt: string;
}> {
  const res = await client.request('post', '/api/console/confirmations').send(body).expect(201);
  return res.body as {
    confirmationId: string;
    options: PublicKeyCredentialRequestOptionsJSON;
    expiresAt: string;
  };
}

/** The whole exchange with a well-behaved authenticator: a confirmation token for `body`. */
export async function confirmationToken(
  client: ConsoleClient,
  authenticator: SoftwareAuthenticator,
  body: ConfirmationRequestBody,
  overrides: CeremonyOverrides = {},
): Promise<string> {
  const started = await beginConfirmation(client, body);
  const res = await client
    .request('post', `/api/console/confirmations/${started.confirmationId}`)
    .send({ response: authenticator.getAssertion(started.options, overrides) })
    .expect(200);
  return (res.body as { confirmationToken: string }).confirmationToken;
}
