import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { sha256Hex } from '../../common/crypto/hash';
import { randomBase62 } from '../../common/crypto/random';
import { Application, CLIENT_AUTH_METHODS, ClientAuthMethod } from './application.entity';
import { isRegistrableRedirectUri } from './redirect-uri';

export interface NewApplication {
  name: string;
  redirectUris: string[];
  authMethod?: ClientAuthMethod;
  description?: string;
  homeUrl?: string;
  logo?: string;
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

  async create(input: NewApplication): Promise<CreatedApplication> {
    const name = input.name.trim();
    if (name.length === 0 || name.length > 100) throw invalid('name must be 1 to 100 characters');
    const authMethod = input.authMethod ?? 'secret';
    if (!CLIENT_AUTH_METHODS.includes(authMethod))
      throw invalid('auth method must be secret or none');
    if (input.redirectUris.length === 0) throw invalid('at least one redirect URI is required');
    const bad = input.redirectUris.filter((uri) => !isRegistrableRedirectUri(uri));
    if (bad.length > 0) throw invalid(`redirect URIs not allowed: ${bad.join(', ')}`);
    for (const url of [input.homeUrl, input.logo]) {
      if (url && !URL.canParse(url)) throw invalid(`not a URL: ${url}`);
    }

    const clientSecret = authMethod === 'secret' ? randomBase62(48) : null;
    const application = await this.applications.save(
      this.applications.create({
        name,
        description: input.description ?? '',
        homeUrl: input.homeUrl ?? '',
        logo: input.logo ?? '',
        clientId: randomBase62(24),
        clientSecretHash: clientSecret === null ? null : sha256Hex(clientSecret),
        clientAuthMethod: authMethod,
        redirectUris: [...new Set(input.redirectUris)],
      }),
    );
    return { application, clientSecret };
  }

  list(): Promise<Application[]> {
    return this.applications.find({ order: { id: 'ASC' } });
  }

  async get(id: number): Promise<Application> {
    const application = await this.applications.findOneBy({ id });
    if (!application) throw new AppError(ErrorCode.NotFound, 'Application not found');
    return application;
  }
}
