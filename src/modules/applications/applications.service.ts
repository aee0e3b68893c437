import { Injectable } from '@nestjs/common';
import { profileProblems, type SecurityProfile } from './security-profile';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { sha256Hex } from '../../common/crypto/hash';
import { randomBase62 } from '../../common/crypto/random';
import {
  ID_TOKEN_SIGNING_ALGS,
  isIdTokenSigningAlg,
  type IdTokenSigningAlg,
} from '../../common/crypto/signing-algs';
import { Application, CLIENT_AUTH_METHODS, ClientAuthMethod } from './application.entity';
import {
  checkClientJwks,
  InvalidJwksError,
  isRegistrableJwksUri,
  MAX_JWKS_URI_LENGTH,
  type ClientJwks,
} from './client-jwks';
import { isRegistrableRedirectUri } from './redirect-uri';
import { isAllowedWebUrl } from './web-url';

export interface NewApplication {
  name: string;
  redirectUris: string[];
  /** Where RP-initiated logout may return (docs/oidc.md); none by default. */
  postLogoutRedirectUris?: string[];
  authMethod?: ClientAuthMethod;
  /** A `private_key_jwt` client's public keys: exactly one of jwks and jwksUri. */
  jwks?: ClientJwks | null;
  jwksUri?: string | null;
  description?: string;
  homeUrl?: string;
  logo?: string;
  isPublic?: boolean;
  requireVerifiedEmail?: boolean;
  /** Whether the login page offers "Create an account" (docs/accounts.md); off by default. */
  signUpEnabled?: boolean;
  /** RFC 9126 section 5: /authorize only with a pushed request (docs/oauth.md); off by default. */
  requirePushedAuthorizationRequests?: boolean;
  /** RFC 9449 section 5.2: every token request with a DPoP proof (docs/oauth.md); off by default. */
  dpopBoundAccessTokens?: boolean;
  /** The client's security profile (security-profile.ts); none by default. */
  securityProfile?: SecurityProfile | null;
  /** The alg of its id_tokens (docs/oidc.md, "Signing keys"); absent: RS256. */
  idTokenSignedResponseAlg?: IdTokenSigningAlg;
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
  /**
   * A `private_key_jwt` client's keys: a JWKS, or where to fetch it. Either replaces the other;
   * null removes it. Switching to another method drops both.
   */
  jwks?: ClientJwks | null;
  jwksUri?: string | null;
  isPublic?: boolean;
  enabled?: boolean;
  requireVerifiedEmail?: boolean;
  signUpEnabled?: boolean;
  requirePushedAuthorizationRequests?: boolean;
  dpopBoundAccessTokens?: boolean;
  securityProfile?: SecurityProfile | null;
  idTokenSignedResponseAlg?: IdTokenSigningAlg;
  /** Upstream provider ids a user must have bound; the caller checks they exist. */
  requiredUpstreams?: string[];
}

export interface CreatedApplication {
  application: Application;
  /** Plaintext client secret for `secret` clients, shown once; null for the other methods. */
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
      securityProfile: input.securityProfile ?? null,
      idTokenSignedResponseAlg: input.idTokenSignedResponseAlg ?? null,
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
    throw invalid(`auth method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`);
  }
  checkKeySettings(input);
  // Never none or an HMAC: only the algorithms the provider has keys for (a CLI value unchecked).
  const alg: unknown = input.idTokenSignedResponseAlg;
  if (alg !== undefined && !isIdTokenSigningAlg(alg)) {
    throw invalid(`id_token signing alg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`);
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

/**
 * The application as a whole meets its security profile (400 invalid_request naming each
 * problem): checked on creation and after every change, so a change that would take a `fapi2`
 * client out of its profile (another method, an http redirect URI, RS256) is refused.
 */
function checkProfile(application: Application): void {
  const problems = profileProblems(application);
  if (problems.length > 0) throw invalid(problems.join('; '));
}

/** The shape of the keys sent (each on its own); whether the method wants them is checkClientKeys'. */
function checkKeySettings({ jwks, jwksUri }: ApplicationSettings): void {
  if (jwks !== undefined && jwks !== null && jwksUri !== undefined && jwksUri !== null) {
    throw invalid('send either jwks or jwksUri, not both');
  }
  if (jwks !== undefined && jwks !== null) {
    try {
      checkClientJwks(jwks);
    } catch (error) {
      if (error instanceof InvalidJwksError) throw invalid(error.message);
      throw error;
    }
  }
  if (jwksUri !== undefined && jwksUri !== null && !isRegistrableJwksUri(jwksUri)) {
    throw invalid(
      `jwksUri must be an https URL without credentials or fragment, at most ${MAX_JWKS_URI_LENGTH} characters`,
    );
  }
}

/**
 * A `private_key_jwt` client has keys (inline or by URI, one of the two); a client of another
 * method has none, so no stale key could ever authenticate it.
 */
function checkClientKeys(
  method: ClientAuthMethod,
  jwks: ClientJwks | null,
  jwksUri: string | null,
): void {
  if (method === 'private_key_jwt' && jwks === null && jwksUri === null) {
    throw invalid('a private_key_jwt client needs jwks or jwksUri');
  }
  if (method !== 'private_key_jwt' && (jwks !== null || jwksUri !== null)) {
    throw invalid('jwks and jwksUri are for private_key_jwt clients only');
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
