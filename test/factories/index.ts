import type { INestApplication } from '@nestjs/common';
import { AdminCommands } from '../../src/cli/admin-commands';
import { runCommand, type CliResult } from '../../src/cli/run-command';
import { ApplicationsService } from '../../src/modules/applications/applications.service';
import type { NewApplication } from '../../src/modules/applications/application-rules';
import { ApiKeysService } from '../../src/modules/keys/api-keys.service';
import type { ApiScope } from '../../src/modules/keys/scopes';
import { UsersService, NewUser } from '../../src/modules/users/users.service';

/** Creates an application through the real service. */
export async function createApplication(
  app: INestApplication,
  input: Partial<NewApplication> = {},
) {
  return app.get(ApplicationsService).create({
    name: input.name ?? 'Test App',
    redirectUris: input.redirectUris ?? ['https://client.example/cb'],
    postLogoutRedirectUris: input.postLogoutRedirectUris,
    authMethod: input.authMethod ?? 'secret',
    jwks: input.jwks,
    jwksUri: input.jwksUri,
    description: input.description,
    homeUrl: input.homeUrl,
    logo: input.logo,
    requireVerifiedEmail: input.requireVerifiedEmail,
    signUpEnabled: input.signUpEnabled,
    deviceCodeGrant: input.deviceCodeGrant,
  });
}

/** Creates an API key through the real service; returns the plaintext and the record. */
export async function createApiKey(
  app: INestApplication,
  applicationId: number,
  scopes: ApiScope[] = [],
  name = 'test key',
) {
  return app.get(ApiKeysService).create(applicationId, name, scopes);
}

let userSeq = 0;
/** Creates a local user through the real service (no password unless given: hashing is slow by design). */
export async function createUser(app: INestApplication, input: Partial<NewUser> = {}) {
  userSeq += 1;
  return app.get(UsersService).create({
    username: input.username ?? `user${userSeq}`,
    email: input.email ?? `user${userSeq}@example.org`,
    password: input.password,
    emailVerified: input.emailVerified,
    nickname: input.nickname,
  });
}

export const adminCommands = (app: INestApplication): AdminCommands => app.get(AdminCommands);

/** Runs one admin CLI command inside `app`, as the CLI process runs it (exit code and output). */
export const runInApp = (app: INestApplication, argv: string[]): Promise<CliResult> =>
  runCommand(argv, () => Promise.resolve(adminCommands(app)));
