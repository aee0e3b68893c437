import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { sha256Hex } from '../../common/crypto/hash';
import { randomBase62 } from '../../common/crypto/random';
import { Application, CLIENT_AUTH_METHODS, ClientAuthMethod } from './application.entity';
import { isRegistrableRedirectUri } from './redirect-uri';
import { isAllowedWebUrl } from './web-url';

export interface NewApplication {
  name: string;
  redirectUris: string[];
  /** Where RP-initiated logout may return (docs/oidc.md); none by default. */
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
  description?: string;
  homeUrl?: string;
  logo?: string;
  isPublic?: boolean;
  requireVerifiedEmail?: boolean;
  /** Whether the login page offers "Create an account" (docs/accounts.md); off by default. */
  signUpEnabled?: boolean;
  /** RFC 9126 section 5: /authorize only with a pushed request (docs/oauth.md); off by default. */
  requirePushedAuthorizationRequests?: boolean;
  /** The console account that creates it; CLI applications have none. */
  ownerId?: string;
}

/** What the console's settings form may change; absent fields stay as they are. */
export interface ApplicationSettings {
  name?: string;
  description?: string;
  homeUrl?: string;
  logo?: string;
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
  isPublic?: boolean;
  enabled?: boolean;
  requireVerifiedEmail?: boolean;
  signUpEnabled?: boolean;
  requirePushedAuthorizationRequests?: boolean;
  /** Upstream provider ids a user must have bound; the caller checks they exist. */
  requiredUpstreams?: string[];
}

export interface CreatedApplication {
  application: Application;
  /** Plaintext client secret for `secret` clients, shown once; null for `none` clients. */
  clientSecret: string | null;
}

const invalid = (message: string): AppError => new AppError(ErrorCode.InvalidRequest, message);

@Injectable()
export class ApplicationsService {
  constructor(
    @InjectRepository(Application) private readonly applications: Repository<Application>,
  ) {}

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
    const clientSecret = authMethod === 'secret' ? randomBase62(48) : null;
    const repo = manager ? manager.getRepository(Application) : this.applications;
    const application = await repo.save(
      repo.create({
        name: input.name.trim(),
        description: input.description ?? '',
        homeUrl: input.homeUrl ?? '',
        logo: input.logo ?? '',
        isPublic: input.isPublic ?? false,
        requireVerifiedEmail: input.requireVerifiedEmail ?? false,
        signUpEnabled: input.signUpEnabled ?? false,
        requirePushedAuthorizationRequests: input.requirePushedAuthorizationRequests ?? false,
        ownerId: input.ownerId ?? null,
        clientId: randomBase62(24),
        clientSecretHash: clientSecret === null ? null : sha256Hex(clientSecret),
        clientAuthMethod: authMethod,
        redirectUris: [...new Set(input.redirectUris)],
        postLogoutRedirectUris: [...new Set(input.postLogoutRedirectUris ?? [])],
      }),
    );
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
    const { authMethod, redirectUris, postLogoutRedirectUris, name, ...rest } = settings;
    Object.assign(application, stripUndefined(rest));
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
    }
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
      throw new AppError(ErrorCode.Conflict, 'A public (none) client has no client secret');
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

/**
 * The rules every name, URL and method of an application obeys, on creation and on update
 * (400 invalid_request); the console runs them before it spends a confirmation.
 */
export function checkSettings(input: ApplicationSettings): void {
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 100) throw invalid('name must be 1 to 100 characters');
  }
  if (input.authMethod !== undefined && !CLIENT_AUTH_METHODS.includes(input.authMethod)) {
    throw invalid('auth method must be secret or none');
  }
  const bad = (input.redirectUris ?? []).filter((uri) => !isRegistrableRedirectUri(uri));
  if (bad.length > 0) throw invalid(`redirect URIs not allowed: ${bad.join(', ')}`);
  // RP-Initiated Logout 1.0 section 3: the same registration rules as redirect URIs.
  const badLogout = (input.postLogoutRedirectUris ?? []).filter(
    (uri) => !isRegistrableRedirectUri(uri),
  );
  if (badLogout.length > 0) {
    throw invalid(`post-logout redirect URIs not allowed: ${badLogout.join(', ')}`);
  }
  // Shown to others (consent page, console, GET /api/v1/app/me): docs/security.md.
  for (const [field, url] of [
    ['homeUrl', input.homeUrl],
    ['logo', input.logo],
  ] as const) {
    if (url && !isAllowedWebUrl(url)) {
      throw invalid(
        `${field} must be an https URL (http only on localhost, 127.0.0.0/8 or [::1]): ${url}`,
      );
    }
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
