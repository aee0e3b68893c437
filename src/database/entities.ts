import { Application } from '../modules/applications/application.entity';
import { AuditLogEntry } from '../modules/audit/audit-log.entity';
import { ConsoleMember } from '../modules/console/roles/console-member.entity';
import { AuthEvent } from '../modules/events/event.entity';
import { ApiKey } from '../modules/keys/api-key.entity';
import { OAuthCode } from '../modules/oauth/oauth-code.entity';
import { DpopProofJti } from '../modules/oauth/dpop/dpop-proof-jti.entity';
import { ClientAssertionJti } from '../modules/oauth/client-auth/client-assertion-jti.entity';
import { OAuthSession } from '../modules/sessions/oauth-session.entity';
import { SignIn } from '../modules/sessions/sign-in.entity';
import { OAuthToken } from '../modules/tokens/oauth-token.entity';
import { DeviceCode } from '../modules/oauth/device/device-code.entity';
import { PushedAuthorizationRequest } from '../modules/oauth/par/pushed-authorization-request.entity';
import { SpentAuthorizationRequest } from '../modules/oauth/spent-authorization-request.entity';
import { PasskeyCeremony } from '../modules/passkeys/passkey-ceremony.entity';
import { PasskeyConfirmation } from '../modules/console/passkeys/confirmations/passkey-confirmation.entity';
import { PasskeyCredential } from '../modules/passkeys/passkey-credential.entity';
import { SigningKey } from '../modules/signing-keys/signing-key.entity';
import { UpstreamIdentity } from '../modules/upstreams/identities/upstream-identity.entity';
import { UpstreamProviderRecord } from '../modules/upstreams/providers/upstream-provider.entity';
import { OneTimeCode } from '../modules/interaction/one-time-codes/one-time-code.entity';
import { AppUser } from '../modules/users/app-user.entity';
import { UserEmail } from '../modules/users/user-email.entity';
import { User } from '../modules/users/user.entity';
import { WebhookDelivery } from '../modules/webhooks/webhook-delivery.entity';
import { WebhookEndpoint } from '../modules/webhooks/webhook-endpoint.entity';

/** Every entity, listed explicitly so the service, the CLI, tests and the TypeORM CLI agree. */
export const ENTITIES = [
  Application,
  ApiKey,
  User,
  UserEmail,
  AppUser,
  OAuthToken,
  AuthEvent,
  OAuthCode,
  OAuthSession,
  SpentAuthorizationRequest,
  PushedAuthorizationRequest,
  DeviceCode,
  ClientAssertionJti,
  DpopProofJti,
  AuditLogEntry,
  PasskeyCredential,
  PasskeyCeremony,
  PasskeyConfirmation,
  UpstreamIdentity,
  UpstreamProviderRecord,
  SigningKey,
  ConsoleMember,
  OneTimeCode,
  SignIn,
  WebhookEndpoint,
  WebhookDelivery,
];
