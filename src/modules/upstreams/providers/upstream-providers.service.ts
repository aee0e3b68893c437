import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppError } from '../../../common/errors/app-error';
import { ErrorCode } from '../../../common/errors/error-code';
import { AppConfig } from '../../../config/app-config';
import type { KindClient } from '../protocols/kind-client';
import { DiscourseKind } from '../protocols/discourse';
import { GithubKind } from '../protocols/github';
import { OAuth2Kind } from '../protocols/oauth2';
import { OidcKind } from '../protocols/oidc';
import { QqKind } from '../protocols/qq';
import { WechatKind } from '../protocols/wechat';
import { endpointProblem, insecureSetting, URL_SETTINGS } from './endpoint-urls';
import { SecretBox } from './secret-box';
import {
  isUpstreamKind,
  PASSWORD_METHOD,
  StartParams,
  UpstreamError,
  UpstreamKind,
  UpstreamProfile,
  UpstreamProvider,
  UpstreamProviderSettings,
} from './upstream-provider';
import { UpstreamProviderRecord } from './upstream-provider.entity';

/** Lower-case letters, digits, '-' and '_': it appears in URLs and in `upstream_providers`. */
const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

export interface ProviderInput {
  id: string;
  displayName: string;
  kind: string;
  clientId: string;
  clientSecret: string;
  enabled?: boolean;
  settings?: UpstreamProviderSettings;
}

export type ProviderPatch = Partial<Omit<ProviderInput, 'id' | 'kind'>>;

/** A provider as the CLI shows it: everything except the secret. */
export interface ProviderView {
  id: string;
  displayName: string;
  kind: UpstreamKind;
  enabled: boolean;
  clientId: string;
  settings: UpstreamProviderSettings;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Upstream identity providers: their configuration (operators, through the admin CLI) and the
 * protocol entry points the sign-in flow calls (authorizationUrl, complete), dispatched by kind.
 */
@Injectable()
export class UpstreamProvidersService {
  private readonly logger = new Logger(UpstreamProvidersService.name);
  private readonly box: SecretBox;
  private readonly kinds: Partial<Record<UpstreamKind, KindClient>>;

  constructor(
    @InjectRepository(UpstreamProviderRecord)
    private readonly records: Repository<UpstreamProviderRecord>,
    @Inject(AppConfig) config: AppConfig,
  ) {
    this.box = new SecretBox(config.sessionSecret);
    const oidc = new OidcKind();
    this.kinds = {
      oidc,
      google: oidc,
      github: new GithubKind(),
      wechat: new WechatKind(),
      qq: new QqKind(),
      discourse: new DiscourseKind(),
      oauth2: new OAuth2Kind(),
    };
  }

  // ---- configuration -------------------------------------------------------------------------

  async create(input: ProviderInput): Promise<ProviderView> {
    if (!PROVIDER_ID.test(input.id)) {
      throw invalid('id must be 1-64 of a-z, 0-9, "-" and "_", starting with a letter or digit');
    }
    if (input.id === PASSWORD_METHOD) {
      throw invalid(
        `id "${PASSWORD_METHOD}" is reserved: it names the password form in upstream_providers`,
      );
    }
    if (!isUpstreamKind(input.kind)) {
      throw invalid(`kind must be one of oidc, google, oauth2, github, qq, wechat, discourse`);
    }
    const settings = checkSettings(input.kind, input.settings ?? {});
    checkCommon(input);
    if (await this.records.existsBy({ id: input.id })) {
      throw new AppError(ErrorCode.Conflict, `upstream provider ${input.id} already exists`);
    }
    const record = this.records.create({
      id: input.id,
      displayName: input.displayName,
      kind: input.kind,
      enabled: input.enabled ?? true,
      clientId: input.clientId,
      clientSecretSealed: this.box.seal(input.clientSecret, input.id),
      settings,
    });
    return view(await this.records.save(record));
  }

  async list(): Promise<ProviderView[]> {
    return (await this.records.find({ order: { id: 'ASC' } })).map(view);
  }

  async get(id: string): Promise<ProviderView> {
    return view(await this.record(id));
  }

  async update(id: string, patch: ProviderPatch): Promise<ProviderView> {
    const record = await this.record(id);
    const merged = {
      displayName: patch.displayName ?? record.displayName,
      clientId: patch.clientId ?? record.clientId,
      clientSecret: patch.clientSecret ?? 'unchanged',
    };
    checkCommon(merged);
    record.displayName = merged.displayName;
    record.clientId = merged.clientId;
    if (patch.enabled !== undefined) record.enabled = patch.enabled;
    if (patch.clientSecret !== undefined) {
      record.clientSecretSealed = this.box.seal(patch.clientSecret, id);
    }
    if (patch.settings !== undefined) {
      record.settings = checkSettings(record.kind, { ...record.settings, ...patch.settings });
    }
    return view(await this.records.save(record));
  }

  async remove(id: string): Promise<void> {
    const result = await this.records.delete({ id });
    if (!result.affected) throw notFound(id);
  }

  // ---- what the sign-in flow uses ------------------------------------------------------------

  async listEnabled(): Promise<UpstreamProvider[]> {
    const records = await this.records.find({ where: { enabled: true }, order: { id: 'ASC' } });
    return records.flatMap((record) => this.decrypted(record) ?? []);
  }

  /** The provider when it is configured and enabled (a disabled one cannot start nor finish). */
  async find(id: string): Promise<UpstreamProvider | null> {
    if (typeof id !== 'string' || !PROVIDER_ID.test(id)) return null;
    const record = await this.records.findOneBy({ id, enabled: true });
    return record ? this.decrypted(record) : null;
  }

  async authorizationUrl(provider: UpstreamProvider, params: StartParams): Promise<string> {
    return this.kindOf(provider).authorizationUrl(provider, params);
  }

  async complete(
    provider: UpstreamProvider,
    callbackQuery: Record<string, string>,
    params: StartParams,
  ): Promise<UpstreamProfile> {
    return this.kindOf(provider).complete(provider, callbackQuery, params);
  }

  private kindOf(provider: UpstreamProvider): KindClient {
    // A row stored before add/update refused plain-http endpoints: not used until it is fixed.
    const insecure = insecureSetting(provider.settings);
    if (insecure) {
      throw new UpstreamError(
        'unavailable',
        `provider ${provider.id}: ${insecure} is plain http on a host other than loopback; set an https URL with "upstream update"`,
      );
    }
    const kind = this.kinds[provider.kind];
    if (!kind) throw new UpstreamError('unavailable', `kind ${provider.kind} is not available`);
    return kind;
  }

  private async record(id: string): Promise<UpstreamProviderRecord> {
    const record = PROVIDER_ID.test(id) ? await this.records.findOneBy({ id }) : null;
    if (!record) throw notFound(id);
    return record;
  }

  /** null (and a log line without the secret) when the secret no longer decrypts. */
  private decrypted(record: UpstreamProviderRecord): UpstreamProvider | null {
    let clientSecret: string;
    try {
      clientSecret = this.box.open(record.clientSecretSealed, record.id);
    } catch {
      this.logger.error(
        `upstream provider ${record.id}: its client secret does not decrypt (SESSION_SECRET changed?); set it again with "upstream update"`,
      );
      return null;
    }
    return {
      id: record.id,
      displayName: record.displayName,
      kind: record.kind,
      enabled: record.enabled,
      clientId: record.clientId,
      clientSecret,
      settings: record.settings,
    };
  }
}

function view(record: UpstreamProviderRecord): ProviderView {
  return {
    id: record.id,
    displayName: record.displayName,
    kind: record.kind,
    enabled: record.enabled,
    clientId: record.clientId,
    settings: record.settings,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

function invalid(message: string): AppError {
  return new AppError(ErrorCode.InvalidRequest, message);
}

function notFound(id: string): AppError {
  return new AppError(ErrorCode.NotFound, `no upstream provider ${id.slice(0, 64)}`);
}

function checkCommon(input: { displayName: string; clientId: string; clientSecret: string }): void {
  if (input.displayName.trim() === '' || input.displayName.length > 100) {
    throw invalid('display name must be 1-100 characters');
  }
  if (input.clientId === '' || input.clientId.length > 255) {
    throw invalid('client id must be 1-255 characters');
  }
  if (input.clientSecret === '' || input.clientSecret.length > 1000) {
    throw invalid('client secret must be 1-1000 characters');
  }
}

/** Which settings each kind needs; the others have the real provider's endpoints as defaults. */
const REQUIRED: Record<UpstreamKind, (typeof URL_SETTINGS)[number][]> = {
  oidc: ['issuer'],
  google: [],
  oauth2: ['authorizationUrl', 'tokenUrl', 'profileUrl'],
  github: [],
  qq: [],
  wechat: [],
  discourse: ['baseUrl'],
};

function checkSettings(
  kind: UpstreamKind,
  settings: UpstreamProviderSettings,
): UpstreamProviderSettings {
  const out: UpstreamProviderSettings = {};
  for (const name of URL_SETTINGS) {
    const value = settings[name];
    if (value === undefined) continue;
    switch (endpointProblem(value)) {
      case 'not_url':
        throw invalid(`${name} must be an absolute URL`);
      case 'not_http':
        throw invalid(`${name} must be an https URL`);
      case 'insecure':
        // The client secret, codes and tokens would cross the network in clear text.
        throw new AppError(
          ErrorCode.InsecureEndpoint,
          `${name} must be an https URL: http:// is accepted only for loopback hosts (127.0.0.0/8, [::1], localhost)`,
        );
      case null:
        out[name] = value;
    }
  }
  for (const name of REQUIRED[kind]) {
    if (out[name] === undefined) throw invalid(`kind ${kind} needs ${name}`);
  }
  if (settings.scope !== undefined) out.scope = settings.scope;
  if (kind === 'oauth2') {
    const fields = settings.profileFields;
    if (!fields || typeof fields.subject !== 'string' || fields.subject === '') {
      throw invalid('kind oauth2 needs the subject field path (--subject-field)');
    }
    out.profileFields = fields;
  } else if (settings.profileFields !== undefined) {
    throw invalid(`profile field paths apply to kind oauth2 only`);
  }
  return out;
}
