import { Injectable } from '@nestjs/common';
import { nameOf, type SecurityProfile } from '../modules/applications/security-profile';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { rfc3339 } from '../common/http/timestamps';
import {
  DEFAULT_ID_TOKEN_SIGNING_ALG,
  type IdTokenSigningAlg,
} from '../common/crypto/signing-algs';
import type { Application, ClientAuthMethod } from '../modules/applications/application.entity';
import type { ClientJwks } from '../modules/applications/client-jwks';
import { ApplicationsService } from '../modules/applications/applications.service';
import { ApiKeysService, IssuedKey } from '../modules/keys/api-keys.service';
import { PasskeyRecovery } from '../modules/passkeys/passkey-recovery';
import type { SigningKeyView } from '../modules/signing-keys/signing-key-view';
import { SigningKeysService } from '../modules/signing-keys/signing-keys.service';
import { CommandReport } from './command-report';
import { statusReport } from './status/status-report';
import { StatusService } from './status/status.service';
import { SeedService } from '../modules/users/seed.service';
import {
  ProviderInput,
  ProviderPatch,
  ProviderView,
  UpstreamProvidersService,
} from '../modules/upstreams/providers/upstream-providers.service';
import { UsersService } from '../modules/users/users.service';
import type { WebhookDelivery } from '../modules/webhooks/webhook-delivery.entity';
import { WebhookResendService } from '../modules/webhooks/webhook-resend.service';
import type { WebhookEndpoint } from '../modules/webhooks/webhook-endpoint.entity';
import {
  BY_CLI,
  checkEventTypes,
  NewEndpoint,
  ReplayFrom,
  WebhookEndpointsService,
} from '../modules/webhooks/webhook-endpoints.service';

/** The alg of an application's id_tokens, its default (RS256) included. */
function idTokenAlgOf(application: Application): IdTokenSigningAlg {
  return application.idTokenSignedResponseAlg ?? DEFAULT_ID_TOKEN_SIGNING_ALG;
}

/** A private_key_jwt client's keys as the CLI prints them: the method, the URI or the key ids. */
function keysView(application: Application): object {
  return {
    clientAuthMethod: application.clientAuthMethod,
    jwksUri: application.jwksUri,
    keys: application.jwks?.keys.map((key) => key.kid ?? key.kty) ?? null,
  };
}

/** A client's back-channel logout registration (docs/oidc.md, "Back-channel logout"). */
function backchannelView(application: Application): object {
  return {
    backchannelLogoutUri: application.backchannelLogoutUri,
    backchannelLogoutSessionRequired: application.backchannelLogoutSessionRequired,
  };
}

/** Only a client that registered back-channel logout: the answer for the others is unchanged. */
const hasBackchannel = (application: Application): boolean =>
  application.backchannelLogoutUri !== null || application.backchannelLogoutSessionRequired;

/** The operations behind the admin CLI; each returns the JSON object the CLI prints. */
@Injectable()
export class AdminCommands {
  constructor(
    private readonly applications: ApplicationsService,
    private readonly apiKeys: ApiKeysService,
    private readonly users: UsersService,
    private readonly seeder: SeedService,
    private readonly upstreams: UpstreamProvidersService,
    private readonly signingKeys: SigningKeysService,
    private readonly passkeyRecovery: PasskeyRecovery,
    private readonly webhooks: WebhookEndpointsService,
    private readonly webhookDelivery: WebhookResendService,
    private readonly statusService: StatusService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** What an operator checks first (docs/operations.md, "CLI status"); exit 1 on a problem. */
  async status(): Promise<CommandReport> {
    return statusReport(await this.statusService.report());
  }

  async migrate(): Promise<object> {
    const ran = await this.dataSource.runMigrations({ transaction: 'each' });
    return { migrated: ran.map((migration) => migration.name) };
  }

  async appCreate(input: {
    name: string;
    redirectUris: string[];
    postLogoutRedirectUris?: string[];
    authMethod?: ClientAuthMethod;
    jwks?: ClientJwks;
    jwksUri?: string;
    description?: string;
    homeUrl?: string;
    logo?: string;
    signUpEnabled?: boolean;
    requirePushedAuthorizationRequests?: boolean;
    dpopBoundAccessTokens?: boolean;
    deviceCodeGrant?: boolean;
    securityProfile?: SecurityProfile | null;
    /** As typed: ApplicationsService refuses anything but ID_TOKEN_SIGNING_ALGS. */
    idTokenSignedResponseAlg?: string;
    backchannelLogoutUri?: string | null;
    backchannelLogoutSessionRequired?: boolean;
  }): Promise<object> {
    const { application, clientSecret } = await this.applications.create({
      ...input,
      idTokenSignedResponseAlg: input.idTokenSignedResponseAlg as IdTokenSigningAlg | undefined,
    });
    return {
      id: application.id,
      clientId: application.clientId,
      clientSecret,
      // Only when one was given: the answer for the other applications is unchanged.
      ...(application.idTokenSignedResponseAlg !== null
        ? { idTokenSignedResponseAlg: application.idTokenSignedResponseAlg }
        : {}),
      ...(application.clientAuthMethod === 'private_key_jwt' ? keysView(application) : {}),
      ...(hasBackchannel(application) ? backchannelView(application) : {}),
    };
  }

  /**
   * Sets or rotates a client's keys (a JWKS or a jwks_uri) and makes it a private_key_jwt
   * client: a secret it had stops working at once.
   */
  async appKeys(id: number, keys: { jwks?: ClientJwks; jwksUri?: string }): Promise<object> {
    const { application } = await this.applications.update(id, {
      authMethod: 'private_key_jwt',
      ...keys,
    });
    return { id: application.id, clientId: application.clientId, ...keysView(application) };
  }

  /** The settings the CLI changes on an existing application: RFC 9126's, RFC 9449's, RFC 8628's,
   * the profile and the id_token alg. */
  async appUpdate(
    applicationId: number,
    settings: {
      requirePushedAuthorizationRequests?: boolean;
      dpopBoundAccessTokens?: boolean;
      deviceCodeGrant?: boolean;
      securityProfile?: SecurityProfile | null;
      idTokenSignedResponseAlg?: string;
      backchannelLogoutUri?: string | null;
      backchannelLogoutSessionRequired?: boolean;
    },
  ): Promise<object> {
    const { application } = await this.applications.update(applicationId, {
      ...settings,
      idTokenSignedResponseAlg: settings.idTokenSignedResponseAlg as IdTokenSigningAlg | undefined,
    });
    return {
      id: application.id,
      requirePushedAuthorizationRequests: application.requirePushedAuthorizationRequests,
      dpopBoundAccessTokens: application.dpopBoundAccessTokens,
      deviceCodeGrant: application.deviceCodeGrant,
      securityProfile: nameOf(application.securityProfile),
      idTokenSignedResponseAlg: idTokenAlgOf(application),
      ...(hasBackchannel(application) ? backchannelView(application) : {}),
    };
  }

  async appList(): Promise<object> {
    const items = await this.applications.list();
    return {
      items: items.map((app) => ({
        id: app.id,
        name: app.name,
        clientId: app.clientId,
        clientAuthMethod: app.clientAuthMethod,
        redirectUris: app.redirectUris,
        postLogoutRedirectUris: app.postLogoutRedirectUris,
        enabled: app.enabled,
        signUpEnabled: app.signUpEnabled,
        requirePushedAuthorizationRequests: app.requirePushedAuthorizationRequests,
        dpopBoundAccessTokens: app.dpopBoundAccessTokens,
        deviceCodeGrant: app.deviceCodeGrant,
        securityProfile: nameOf(app.securityProfile),
        idTokenSignedResponseAlg: idTokenAlgOf(app),
        createdAt: rfc3339(app.createdAt),
      })),
    };
  }

  async keyCreate(applicationId: number, name: string, scopes: string[]): Promise<object> {
    await this.applications.get(applicationId);
    return issuedView(await this.apiKeys.create(applicationId, name, scopes));
  }

  async keyRotate(keyId: number): Promise<object> {
    return issuedView(await this.apiKeys.rotate(keyId));
  }

  async keyRevoke(keyId: number): Promise<object> {
    const key = await this.apiKeys.revoke(keyId);
    return { id: key.id, status: this.apiKeys.statusOf(key) };
  }

  async keyDelete(keyId: number): Promise<object> {
    await this.apiKeys.delete(keyId);
    return { id: keyId, deleted: true };
  }

  async keyList(applicationId: number): Promise<object> {
    await this.applications.get(applicationId);
    const keys = await this.apiKeys.list(applicationId);
    return {
      items: keys.map((key) => ({
        id: key.id,
        name: key.name,
        keyPrefix: key.keyPrefix,
        scopes: key.scopes,
        status: this.apiKeys.statusOf(key),
        expiresAt: rfc3339(key.expiresAt),
        lastUsedAt: rfc3339(key.lastUsedAt),
        createdAt: rfc3339(key.createdAt),
      })),
    };
  }

  async userCreate(input: {
    username: string;
    email: string;
    password?: string;
    emailVerified?: boolean;
    nickname?: string;
  }): Promise<object> {
    const user = await this.users.create(input);
    return { id: Number(user.id), username: user.username };
  }

  /** Recovery of an account that lost every passkey; audited without an actor (via cli). */
  async userPasskeysRemove(user: string): Promise<object> {
    const { userId, username, removed } = await this.passkeyRecovery.removeAll(user);
    return { userId: Number(userId), username, removed: removed.length, passkeys: removed };
  }

  async upstreamAdd(input: ProviderInput): Promise<object> {
    return upstreamView(await this.upstreams.create(input));
  }

  async upstreamUpdate(id: string, patch: ProviderPatch): Promise<object> {
    return upstreamView(await this.upstreams.update(id, patch));
  }

  async upstreamList(): Promise<object> {
    return { items: (await this.upstreams.list()).map(upstreamView) };
  }

  async upstreamShow(id: string): Promise<object> {
    return upstreamView(await this.upstreams.get(id));
  }

  async upstreamRemove(id: string): Promise<object> {
    await this.upstreams.remove(id);
    return { id, removed: true };
  }

  /** Public facts only: the private key never leaves SigningKeysService. */
  async signingKeyList(): Promise<object> {
    return { items: (await this.signingKeys.list()).map(signingKeyView) };
  }

  /**
   * One alg's rotation, or every alg in use: then RS256's kids at the top level (the answer of
   * the single-alg days) and each alg's under `algorithms`.
   */
  async signingKeyRotate(alg?: IdTokenSigningAlg): Promise<object> {
    if (alg !== undefined) return this.signingKeys.rotate(alg);
    const algorithms = await this.signingKeys.rotateAll();
    return { ...algorithms.find((result) => result.alg === 'RS256'), algorithms };
  }

  /** The signing secret is printed here and never again (docs/webhooks.md). */
  async webhookAdd(input: NewEndpoint): Promise<object> {
    const { endpoint, secret } = await this.webhooks.create(input);
    return { ...webhookView(endpoint), secret };
  }

  /** The new signing secret is printed here and never again; the old one signs for 24 h more. */
  async webhookRotateSecret(id: number): Promise<object> {
    const { endpoint, secret } = await this.webhooks.rotateSecret(id);
    return {
      ...webhookView(endpoint),
      secret,
      previousSecretUntil: rfc3339(endpoint.previousSecretUntil),
    };
  }

  async webhookList(applicationId: number): Promise<object> {
    return { items: (await this.webhooks.list(applicationId)).map(webhookView) };
  }

  async webhookRemove(id: number): Promise<object> {
    await this.webhooks.remove(id);
    return { id, removed: true };
  }

  async webhookSetEnabled(id: number, enabled: boolean): Promise<object> {
    return webhookView(await this.webhooks.setEnabled(id, enabled));
  }

  /** Both URL and fields are checked before either changes. */
  async webhookUpdate(
    id: number,
    patch: { url?: string; eventTypes?: string[]; description?: string },
  ): Promise<object> {
    if (patch.url !== undefined) this.webhooks.checkUrl(patch.url);
    if (patch.eventTypes !== undefined) checkEventTypes(patch.eventTypes);
    let endpoint = await this.webhooks.get(id);
    if (patch.eventTypes !== undefined || patch.description !== undefined) {
      endpoint = await this.webhooks.update(id, {
        eventTypes: patch.eventTypes,
        description: patch.description,
      });
    }
    if (patch.url !== undefined) endpoint = await this.webhooks.changeUrl(id, patch.url);
    return webhookView(endpoint);
  }

  async webhookReplay(id: number, from: ReplayFrom): Promise<object> {
    const { endpoint, events } = await this.webhooks.replay(id, from);
    return { ...webhookView(endpoint), events };
  }

  async webhookTest(id: number): Promise<object> {
    return deliveryView(await this.webhookDelivery.sendTest(id, BY_CLI.actor));
  }

  async webhookDeliveries(id: number): Promise<object> {
    return { items: (await this.webhooks.deliveries(id)).map(deliveryView) };
  }

  /** Synthetic users for demos and benchmarks (docs/seed.md). */
  async seed(applicationId: number, users: number, days: number): Promise<object> {
    await this.applications.get(applicationId);
    return this.seeder.seed(applicationId, users, days);
  }
}

function signingKeyView(key: SigningKeyView): object {
  return {
    kid: key.kid,
    alg: key.alg,
    state: key.state,
    createdAt: rfc3339(key.createdAt),
    activatedAt: rfc3339(key.activatedAt),
    retiredAt: rfc3339(key.retiredAt),
    publishedUntil: rfc3339(key.publishedUntil),
  };
}

/** The client secret is write-only: no command prints it (docs/upstreams.md). */
function upstreamView(provider: ProviderView): object {
  return {
    id: provider.id,
    name: provider.displayName,
    kind: provider.kind,
    enabled: provider.enabled,
    clientId: provider.clientId,
    settings: provider.settings,
    createdAt: rfc3339(provider.createdAt),
    updatedAt: rfc3339(provider.updatedAt),
  };
}

/** An endpoint without its secret, which only `webhook add` and `rotate-secret` print. */
function webhookView(endpoint: WebhookEndpoint): object {
  return {
    id: endpoint.id,
    applicationId: endpoint.applicationId,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.eventTypes,
    enabled: endpoint.enabled,
    disabledReason: endpoint.disabledReason,
    failingSince: rfc3339(endpoint.failingSince),
    nextAttemptAt: rfc3339(endpoint.nextAttemptAt),
    lastDeliveredEventId: Number(endpoint.cursor),
    createdAt: rfc3339(endpoint.createdAt),
  };
}

function deliveryView(attempt: WebhookDelivery): object {
  return {
    id: Number(attempt.id),
    kind: attempt.kind,
    eventId: attempt.eventId === null ? null : Number(attempt.eventId),
    attemptedAt: rfc3339(attempt.attemptedAt),
    statusCode: attempt.statusCode,
    latencyMs: attempt.latencyMs,
    error: attempt.error,
    nextAttemptAt: rfc3339(attempt.nextAttemptAt),
  };
}

function issuedView({ apiKey, plaintext }: IssuedKey): object {
  return { id: apiKey.id, key: plaintext, keyPrefix: apiKey.keyPrefix, scopes: apiKey.scopes };
}
