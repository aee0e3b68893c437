import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { sha256Hex } from '../../common/crypto/hash';
import { randomBase62 } from '../../common/crypto/random';
import { AppConfig } from '../../config/app-config';
import { Application, ClientAuthMethod } from './application.entity';
import { checkBackchannelLogoutUri } from './backchannel-logout-uri';
import {
  checkClientKeys,
  checkProfile,
  checkSettings,
  invalid,
  type ApplicationSettings,
  type NewApplication,
} from './application-rules';

export interface CreatedApplication {
  application: Application;
  /** Plaintext client secret for `secret` clients, shown once; null for the other methods. */
  clientSecret: string | null;
}

@Injectable()
export class ApplicationsService {
  constructor(
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  /** A logout URI as stored (normalised), null to remove it; undefined: not sent. */
  logoutUri(value: string | null | undefined): string | null | undefined {
    if (value === undefined || value === null) return value;
    return checkBackchannelLogoutUri(value, this.config.webhooksAllowInsecure);
  }

  /**
   * Registers an application. A console application may start without redirect URIs (its owner
   * adds them in the settings); the CLI, which has no settings, must give one.
   */
  async create(input: NewApplication, manager?: EntityManager): Promise<CreatedApplication> {
    if (input.redirectUris.length === 0 && input.ownerId === undefined) {
      throw invalid('at least one redirect URI is required');
    }
    const authMethod = input.authMethod ?? 'secret';
    checkSettings({ ...input, authMethod });
    checkClientKeys(authMethod, input.jwks ?? null, input.jwksUri ?? null);
    const clientSecret = authMethod === 'secret' ? randomBase62(48) : null;
    const repo = manager ? manager.getRepository(Application) : this.applications;
    const candidate = repo.create({
      name: input.name.trim(),
      description: input.description ?? '',
      homeUrl: input.homeUrl ?? '',
      logo: input.logo ?? '',
      isPublic: input.isPublic ?? false,
      requireVerifiedEmail: input.requireVerifiedEmail ?? false,
      signUpEnabled: input.signUpEnabled ?? false,
      requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
      dpopBoundAccessTokens: input.dpopBoundAccessTokens ?? false,
      deviceCodeGrant: input.deviceCodeGrant ?? false,
      securityProfile: input.securityProfile ?? null,
      idTokenSignedResponseAlg: input.idTokenSignedResponseAlg ?? null,
      backchannelLogoutUri: this.logoutUri(input.backchannelLogoutUri) ?? null,
      backchannelLogoutSessionRequired: input.backchannelLogoutSessionRequired ?? false,
      ownerId: input.ownerId ?? null,
      clientId: randomBase62(24),
      clientSecretHash: clientSecret === null ? null : sha256Hex(clientSecret),
      clientAuthMethod: authMethod,
      jwks: input.jwks ?? null,
      jwksUri: input.jwksUri ?? null,
      redirectUris: [...new Set(input.redirectUris)],
      postLogoutRedirectUris: [...new Set(input.postLogoutRedirectUris ?? [])],
    });
    checkProfile(candidate);
    const application = await repo.save(candidate);
    return { application, clientSecret };
  }

  /**
   * Changes settings. Switching to `secret` without a secret issues one (returned once, like on
   * creation); switching to `none` drops the stored one. With a manager, in its transaction:
   * the console locks the row first (`lockForUpdate`) and records the change in the same one.
   */
  async update(
    id: number,
    settings: ApplicationSettings,
    manager?: EntityManager,
  ): Promise<CreatedApplication> {
    checkSettings(settings);
    const repo = manager ? manager.getRepository(Application) : this.applications;
    const application = await repo.findOneBy({ id });
    if (!application) throw new AppError(ErrorCode.NotFound, 'Application not found');
    const { authMethod, redirectUris, postLogoutRedirectUris, name, jwks, jwksUri, ...rest } =
      settings;
    Object.assign(application, stripUndefined(rest));
    const logoutUri = this.logoutUri(rest.backchannelLogoutUri);
    if (logoutUri !== undefined) application.backchannelLogoutUri = logoutUri;
    if (name !== undefined) application.name = name.trim();
    if (redirectUris !== undefined) application.redirectUris = [...new Set(redirectUris)];
    if (postLogoutRedirectUris !== undefined) {
      application.postLogoutRedirectUris = [...new Set(postLogoutRedirectUris)];
    }
    if (rest.requiredUpstreams !== undefined) {
      application.requiredUpstreams = [...new Set(rest.requiredUpstreams)];
    }
    let clientSecret: string | null = null;
    if (authMethod !== undefined && authMethod !== application.clientAuthMethod) {
      application.clientAuthMethod = authMethod;
      clientSecret = authMethod === 'secret' ? randomBase62(48) : null;
      application.clientSecretHash = clientSecret === null ? null : sha256Hex(clientSecret);
      if (authMethod !== 'private_key_jwt') [application.jwks, application.jwksUri] = [null, null];
    }
    if (jwks !== undefined) [application.jwks, application.jwksUri] = [jwks, null];
    if (jwksUri !== undefined) [application.jwksUri, application.jwks] = [jwksUri, null];
    checkClientKeys(application.clientAuthMethod, application.jwks, application.jwksUri);
    checkProfile(application);
    return { application: await repo.save(application), clientSecret };
  }

  /**
   * The application, its row locked until `manager`'s transaction ends: a change decided on
   * what it reads (the console's "does this need a confirmation") cannot race another one.
   */
  async lockForUpdate(id: number, manager: EntityManager): Promise<Application> {
    const application = await manager
      .getRepository(Application)
      .findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!application) throw new AppError(ErrorCode.NotFound, 'Application not found');
    return application;
  }

  /**
   * A new client secret (the old one stops working at once); `none` clients have none. With a
   * manager, in its transaction.
   */
  async resetClientSecret(id: number, manager?: EntityManager): Promise<string> {
    const repo = manager ? manager.getRepository(Application) : this.applications;
    const application = await repo.findOneBy({ id });
    if (!application) throw new AppError(ErrorCode.NotFound, 'Application not found');
    if (application.clientAuthMethod !== 'secret') {
      throw new AppError(ErrorCode.Conflict, noSecret(application.clientAuthMethod));
    }
    const clientSecret = randomBase62(48);
    await repo.update({ id }, { clientSecretHash: sha256Hex(clientSecret) });
    return clientSecret;
  }

  /** Removes the application with its keys, relations, tokens and events (foreign keys cascade). */
  async delete(id: number, manager?: EntityManager): Promise<void> {
    const repo = manager ? manager.getRepository(Application) : this.applications;
    const result = await repo.delete({ id });
    if (!result.affected) throw new AppError(ErrorCode.NotFound, 'Application not found');
  }

  list(): Promise<Application[]> {
    return this.applications.find({ order: { id: 'ASC' } });
  }

  /** The applications with these ids, by id; missing ids are left out. */
  findByIds(ids: number[]): Promise<Application[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.applications.find({ where: { id: In(ids) }, order: { id: 'ASC' } });
  }

  async get(id: number): Promise<Application> {
    const application = await this.applications.findOneBy({ id });
    if (!application) throw new AppError(ErrorCode.NotFound, 'Application not found');
    return application;
  }
}

/** Why a client of another method than `secret` has no secret to reset. */
export const noSecret = (method: ClientAuthMethod): string =>
  method === 'none'
    ? 'A public (none) client has no client secret'
    : 'A private_key_jwt client has no client secret: it authenticates with its keys';

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
