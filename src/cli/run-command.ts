import { readFileSync } from 'node:fs';
import {
  PROFILE_NAMES,
  profileOf,
  type ProfileName,
  type SecurityProfile,
} from '../modules/applications/security-profile';
import { parseArgs } from 'node:util';
import { AppError } from '../common/errors/app-error';
import { ID_TOKEN_SIGNING_ALGS, isIdTokenSigningAlg } from '../common/crypto/signing-algs';
import { CLIENT_AUTH_METHODS, ClientAuthMethod } from '../modules/applications/application.entity';
import type { ClientJwks } from '../modules/applications/client-jwks';
import type {
  ProfileFieldPaths,
  UpstreamProviderSettings,
} from '../modules/upstreams/providers/upstream-provider';
import { parseRfc3339 } from '../modules/events/event-query';
import type { ReplayFrom } from '../modules/webhooks/webhook-endpoints.service';
import type { AdminCommands } from './admin-commands';
import { CommandReport } from './command-report';

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export const USAGE = `Usage: identity-cli <command> [options] [--json]

  status                                   version, migrations, database, Redis, signing keys
                                           and webhook lag; exit 1 when something is wrong
                                           (docs/operations.md, "CLI status")
  migrate                                  run pending database migrations
  app create --name N --redirect-uri U [--redirect-uri U2 ...]
             [--post-logout-redirect-uri U ...]
             [--auth-method secret|none|private_key_jwt [--jwks FILE | --jwks-uri U]]
             [--description D] [--home-url U] [--logo U]
             [--sign-up]                   offer "Create an account" on its login page
                                           (docs/accounts.md; SIGNUP_ENABLED must allow it)
             [--require-par on|off]        take only pushed authorization requests (RFC 9126;
                                           docs/oauth.md); off by default
             [--require-dpop on|off]       every token request with a DPoP proof (RFC 9449
                                           dpop_bound_access_tokens; docs/oauth.md); off by default
             [--device-code-grant on|off]  registered for the device authorization grant (RFC
                                           8628; docs/oauth.md); off by default
             [--id-token-alg RS256|PS256|ES256|EdDSA]
                                           the alg of its id_tokens (docs/oidc.md, "Signing
                                           keys"); RS256 by default
             [--profile fapi2|none]        the FAPI 2.0 Security Profile (docs/oidc.md): needs
                                           private_key_jwt, https redirect URIs and --id-token-alg
                                           PS256, ES256 or EdDSA; none by default
             [--backchannel-logout-uri URL|none]
                                           where logout tokens go when a session ends (OpenID
                                           Connect Back-Channel Logout; docs/oidc.md); none by
                                           default
             [--backchannel-logout-session-required on|off]
                                           backchannel_logout_session_required (sid is always
                                           sent); off by default
  app update APP_ID [--require-par on|off] [--require-dpop on|off] [--profile fapi2|none]
                    [--id-token-alg ALG] [--device-code-grant on|off]
                    [--backchannel-logout-uri URL|none]
                    [--backchannel-logout-session-required on|off]
                                           the same settings of an existing application
  app list
  app keys ID --jwks FILE | --jwks-uri U   private_key_jwt (docs/oauth.md, "Client authentication"):
                                           set or rotate the client's public keys, a JWK Set in
                                           a JSON file or an https URL serving it; switches the
                                           client to private_key_jwt (its secret stops working)
  key create --app ID --scopes user:read,stats:read --name N
  key rotate KEY_ID | key revoke KEY_ID | key delete KEY_ID
  key list --app ID
  user create --username U --email E [--password P] [--email-verified] [--nickname N]
  user passkeys remove --user ID|USERNAME  remove every passkey of an account that lost them
                                           (audited; the next passkey needs a fresh password
                                           sign-in; an all-digit value is an id)
  upstream add ID --kind K --name N --client-id C --client-secret S [kind settings]
  upstream update ID [--name N] [--client-id C] [--client-secret S] [--enable|--disable]
                  [kind settings]
  upstream list | upstream show ID | upstream remove ID
             kinds: oidc google oauth2 github qq wechat discourse; settings (docs/upstreams.md):
             --issuer U --authorization-url U --token-url U --profile-url U --emails-url U
             --openid-url U --base-url U --scope S; oauth2: --subject-field P --username-field P
             --email-field P --email-verified-field P --avatar-field P
  signing-key list                         the OpenID Connect signing keys (no private material)
  signing-key rotate [--alg ALG]           active -> retired, next -> active, a fresh next key,
                                           for ALG (RS256, PS256, ES256, EdDSA) or, without
                                           --alg, for every alg in use (docs/oidc.md, "Signing
                                           keys")
  webhook add --app ID --url U [--events a,b] [--description D]
                                           a webhook endpoint (docs/webhooks.md); prints its
                                           signing secret, once; https only (http on loopback
                                           with WEBHOOKS_ALLOW_INSECURE=true); no --events: all
  webhook list --app ID | webhook remove ID | webhook enable ID | webhook disable ID
  webhook rotate-secret ID                 a new signing secret, printed once; the old one
                                           signs beside it for 24 hours
  webhook update ID [--url U] [--events a,b] [--description D]
                                           --events '' takes every type again
  webhook replay ID --from-event N | --from-time T
                                           send again from that event (of the application) or
                                           from the first event created at or after T (RFC 3339)
  webhook test ID                          send a test event (type webhook.test) now
  webhook deliveries ID                    the last 100 attempts, newest first
  seed --app ID --users N [--days D]       create N synthetic users related to the app, with
                                           authorizations spread over the last D days (default 60)

With --json, exactly one JSON object is printed on stdout (an {error, message} object on failure).
Without DATABASE_URL the embedded database is used; while the service runs on it, commands are
handed to the running service through the admin socket in its data directory.`;

class UsageError extends Error {}

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  'post-logout-redirect-uri': { type: 'string', multiple: true },
  'auth-method': { type: 'string' },
  jwks: { type: 'string' },
  'jwks-uri': { type: 'string' },
  description: { type: 'string' },
  'home-url': { type: 'string' },
  logo: { type: 'string' },
  'sign-up': { type: 'boolean' },
  'require-par': { type: 'string' },
  'require-dpop': { type: 'string' },
  'device-code-grant': { type: 'string' },
  'backchannel-logout-uri': { type: 'string' },
  'backchannel-logout-session-required': { type: 'string' },
  profile: { type: 'string' },
  'id-token-alg': { type: 'string' },
  alg: { type: 'string' },
  app: { type: 'string' },
  scopes: { type: 'string' },
  username: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'email-verified': { type: 'boolean' },
  nickname: { type: 'string' },
  users: { type: 'string' },
  user: { type: 'string' },
  days: { type: 'string' },
  kind: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret': { type: 'string' },
  enable: { type: 'boolean' },
  disable: { type: 'boolean' },
  issuer: { type: 'string' },
  'authorization-url': { type: 'string' },
  'token-url': { type: 'string' },
  'profile-url': { type: 'string' },
  'emails-url': { type: 'string' },
  'openid-url': { type: 'string' },
  'base-url': { type: 'string' },
  scope: { type: 'string' },
  'subject-field': { type: 'string' },
  'username-field': { type: 'string' },
  'email-field': { type: 'string' },
  'email-verified-field': { type: 'string' },
  'avatar-field': { type: 'string' },
  url: { type: 'string' },
  events: { type: 'string' },
  'from-event': { type: 'string' },
  'from-time': { type: 'string' },
} as const;

type Values = ReturnType<
  typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>
>['values'];

function required(
  values: Values,
  name:
    'name' | 'app' | 'username' | 'email' | 'kind' | 'client-id' | 'client-secret' | 'user' | 'url',
): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function positiveInt(value: string | undefined, what: string): number {
  if (value === undefined || !/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2 ** 31 - 1) {
    throw new UsageError(`${what} must be a positive integer`);
  }
  return Number(value);
}

function authMethod(value: string | undefined): ClientAuthMethod | undefined {
  if (value === undefined) return undefined;
  if (!(CLIENT_AUTH_METHODS as readonly string[]).includes(value)) {
    throw new UsageError(`--auth-method must be one of ${CLIENT_AUTH_METHODS.join(', ')}`);
  }
  return value as ClientAuthMethod;
}

/**
 * --jwks FILE (a JWK Set in JSON, read here; or the JSON itself, which is how a command handed to
 * the running service carries it: inlineJwksFile) or --jwks-uri U; the rules are
 * ApplicationsService's.
 */
function clientKeys(values: Values): { jwks?: ClientJwks; jwksUri?: string } {
  const file = values.jwks;
  const uri = values['jwks-uri'];
  if (file !== undefined && uri !== undefined) {
    throw new UsageError('give either --jwks or --jwks-uri, not both');
  }
  if (uri !== undefined) return { jwksUri: uri };
  if (file === undefined) return {};
  let text = file;
  if (!file.trimStart().startsWith('{')) {
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`--jwks: cannot read ${file}`);
    }
  }
  try {
    return { jwks: JSON.parse(text) as ClientJwks };
  } catch {
    throw new UsageError(`--jwks: ${file} is not JSON`);
  }
}

function providerId(value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError('PROVIDER_ID is required');
  return value;
}

/** The kind settings given on the command line (only those present, so update can merge). */
function upstreamSettings(values: Values): UpstreamProviderSettings | undefined {
  const settings: UpstreamProviderSettings = {};
  const urls = {
    issuer: values.issuer,
    authorizationUrl: values['authorization-url'],
    tokenUrl: values['token-url'],
    profileUrl: values['profile-url'],
    emailsUrl: values['emails-url'],
    openidUrl: values['openid-url'],
    baseUrl: values['base-url'],
    scope: values.scope,
  };
  for (const [name, value] of Object.entries(urls)) {
    if (value !== undefined) settings[name as keyof typeof urls] = value;
  }
  const fields = {
    subject: values['subject-field'],
    username: values['username-field'],
    email: values['email-field'],
    emailVerified: values['email-verified-field'],
    avatar: values['avatar-field'],
  };
  if (Object.values(fields).some((value) => value !== undefined)) {
    settings.profileFields = Object.fromEntries(
      Object.entries(fields).filter(([, value]) => value !== undefined),
    ) as unknown as ProfileFieldPaths;
  }
  return Object.keys(settings).length > 0 ? settings : undefined;
}

function enabledFlag(values: Values): boolean | undefined {
  if (values.enable && values.disable) throw new UsageError('--enable and --disable conflict');
  return values.enable ? true : values.disable ? false : undefined;
}

/** A comma-separated option as its non-empty, trimmed items. */
function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** --from-event N or --from-time T, exactly one. */
function replayFrom(values: Values): ReplayFrom {
  const event = values['from-event'];
  const time = values['from-time'];
  if ((event === undefined) === (time === undefined)) {
    throw new UsageError('webhook replay needs exactly one of --from-event and --from-time');
  }
  if (event !== undefined) {
    if (!/^[1-9]\d{0,17}$/.test(event)) throw new UsageError('--from-event must be an event id');
    return { fromEventId: event };
  }
  if (parseRfc3339(time!) === undefined) {
    throw new UsageError('--from-time must be an RFC 3339 time, e.g. 2026-05-01T00:00:00Z');
  }
  return { fromTime: time!.toUpperCase() };
}

type OnOffOption =
  'require-par' | 'require-dpop' | 'device-code-grant' | 'backchannel-logout-session-required';

/** The on|off option `name`'s value; `fallback` when it is not given. */
function onOff(values: Values, name: OnOffOption, fallback: boolean): boolean;
function onOff(values: Values, name: OnOffOption, fallback?: undefined): boolean | undefined;
function onOff(values: Values, name: OnOffOption, fallback?: boolean): boolean | undefined {
  const value = values[name];
  if (value === undefined) return fallback;
  if (value === 'on' || value === 'off') return value === 'on';
  throw new UsageError(`--${name} must be on or off`);
}

/**
 * --backchannel-logout-uri's value: the URI (checked by ApplicationsService, as the console's
 * is), null for `none`, undefined when not given.
 */
function logoutUri(values: Values): string | null | undefined {
  const value = values['backchannel-logout-uri'];
  return value === 'none' ? null : value;
}

/** --profile's value: a security profile, null for `none`, undefined when not given. */
function securityProfile(values: Values): SecurityProfile | null | undefined {
  const value = values.profile;
  if (value === undefined) return undefined;
  if (!(PROFILE_NAMES as readonly string[]).includes(value)) {
    throw new UsageError(`--profile must be one of ${PROFILE_NAMES.join(', ')}`);
  }
  return profileOf(value as ProfileName);
}

type Action = (commands: AdminCommands) => Promise<object>;

/** Turns a parsed command line into an action; usage errors surface before anything boots. */
function plan(words: string[], values: Values): Action {
  const [noun, verb, arg] = words;
  switch (`${noun ?? ''} ${verb ?? ''}`.trim()) {
    case 'status':
      return (c) => c.status();
    case 'migrate':
      return (c) => c.migrate();
    case 'app create': {
      const input = {
        name: required(values, 'name'),
        redirectUris: values['redirect-uri'] ?? [],
        postLogoutRedirectUris: values['post-logout-redirect-uri'] ?? [],
        authMethod: authMethod(values['auth-method']),
        ...clientKeys(values),
        description: values.description,
        homeUrl: values['home-url'],
        logo: values.logo,
        signUpEnabled: values['sign-up'] ?? false,
        requirePushedAuthorizationRequests: onOff(values, 'require-par', false),
        dpopBoundAccessTokens: onOff(values, 'require-dpop', false),
        deviceCodeGrant: onOff(values, 'device-code-grant', false),
        securityProfile: securityProfile(values) ?? null,
        // Checked by ApplicationsService like the console's value (400 invalid_request).
        idTokenSignedResponseAlg: values['id-token-alg'],
        backchannelLogoutUri: logoutUri(values),
        backchannelLogoutSessionRequired: onOff(values, 'backchannel-logout-session-required'),
      };
      return (c) => c.appCreate(input);
    }
    case 'app update': {
      const id = positiveInt(arg, 'APP_ID');
      const settings = {
        requirePushedAuthorizationRequests: onOff(values, 'require-par'),
        dpopBoundAccessTokens: onOff(values, 'require-dpop'),
        deviceCodeGrant: onOff(values, 'device-code-grant'),
        securityProfile: securityProfile(values),
        idTokenSignedResponseAlg: values['id-token-alg'],
        backchannelLogoutUri: logoutUri(values),
        backchannelLogoutSessionRequired: onOff(values, 'backchannel-logout-session-required'),
      };
      if (Object.values(settings).every((value) => value === undefined)) {
        throw new UsageError(
          'app update needs --require-par on|off, --require-dpop on|off, --device-code-grant on|off, --profile fapi2|none, --id-token-alg ALG, --backchannel-logout-uri URL|none or --backchannel-logout-session-required on|off',
        );
      }
      return (c) => c.appUpdate(id, settings);
    }
    case 'app list':
      return (c) => c.appList();
    case 'app keys': {
      const id = positiveInt(arg, 'ID');
      const keys = clientKeys(values);
      if (keys.jwks === undefined && keys.jwksUri === undefined) {
        throw new UsageError('app keys needs --jwks FILE or --jwks-uri U');
      }
      return (c) => c.appKeys(id, keys);
    }
    case 'key create': {
      const app = positiveInt(values.app, '--app');
      const name = required(values, 'name');
      const scopes = commaList(values.scopes);
      return (c) => c.keyCreate(app, name, scopes);
    }
    case 'key rotate': {
      const id = positiveInt(arg, 'KEY_ID');
      return (c) => c.keyRotate(id);
    }
    case 'key revoke': {
      const id = positiveInt(arg, 'KEY_ID');
      return (c) => c.keyRevoke(id);
    }
    case 'key delete': {
      const id = positiveInt(arg, 'KEY_ID');
      return (c) => c.keyDelete(id);
    }
    case 'key list': {
      const app = positiveInt(values.app, '--app');
      return (c) => c.keyList(app);
    }
    case 'user create': {
      const input = {
        username: required(values, 'username'),
        email: required(values, 'email'),
        password: values.password,
        emailVerified: values['email-verified'] ?? false,
        nickname: values.nickname,
      };
      return (c) => c.userCreate(input);
    }
    case 'user passkeys': {
      if (arg !== 'remove') throw new UsageError('usage: user passkeys remove --user ID|USERNAME');
      const user = required(values, 'user');
      return (c) => c.userPasskeysRemove(user);
    }
    case 'upstream add': {
      const input = {
        id: providerId(arg),
        kind: required(values, 'kind'),
        displayName: required(values, 'name'),
        clientId: required(values, 'client-id'),
        clientSecret: required(values, 'client-secret'),
        enabled: enabledFlag(values),
        settings: upstreamSettings(values),
      };
      return (c) => c.upstreamAdd(input);
    }
    case 'upstream update': {
      const id = providerId(arg);
      if (values.kind !== undefined) throw new UsageError('the kind of a provider cannot change');
      const patch = {
        displayName: values.name,
        clientId: values['client-id'],
        clientSecret: values['client-secret'],
        enabled: enabledFlag(values),
        settings: upstreamSettings(values),
      };
      return (c) => c.upstreamUpdate(id, patch);
    }
    case 'upstream list':
      return (c) => c.upstreamList();
    case 'upstream show': {
      const id = providerId(arg);
      return (c) => c.upstreamShow(id);
    }
    case 'upstream remove': {
      const id = providerId(arg);
      return (c) => c.upstreamRemove(id);
    }
    case 'signing-key list':
      return (c) => c.signingKeyList();
    case 'signing-key rotate': {
      const alg = values.alg;
      if (alg !== undefined && !isIdTokenSigningAlg(alg)) {
        throw new UsageError(`--alg must be one of ${ID_TOKEN_SIGNING_ALGS.join(', ')}`);
      }
      return (c) => c.signingKeyRotate(alg);
    }
    case 'webhook add': {
      const input = {
        applicationId: positiveInt(values.app, '--app'),
        url: required(values, 'url'),
        eventTypes: commaList(values.events),
        description: values.description,
      };
      return (c) => c.webhookAdd(input);
    }
    case 'webhook list': {
      const app = positiveInt(values.app, '--app');
      return (c) => c.webhookList(app);
    }
    case 'webhook remove': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      return (c) => c.webhookRemove(id);
    }
    case 'webhook rotate-secret': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      return (c) => c.webhookRotateSecret(id);
    }
    case 'webhook enable':
    case 'webhook disable': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      const enabled = verb === 'enable';
      return (c) => c.webhookSetEnabled(id, enabled);
    }
    case 'webhook update': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      const patch = {
        url: values.url,
        eventTypes: values.events === undefined ? undefined : commaList(values.events),
        description: values.description,
      };
      if (Object.values(patch).every((value) => value === undefined)) {
        throw new UsageError('webhook update needs --url, --events or --description');
      }
      return (c) => c.webhookUpdate(id, patch);
    }
    case 'webhook replay': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      const from = replayFrom(values);
      return (c) => c.webhookReplay(id, from);
    }
    case 'webhook test': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      return (c) => c.webhookTest(id);
    }
    case 'webhook deliveries': {
      const id = positiveInt(arg, 'WEBHOOK_ID');
      return (c) => c.webhookDeliveries(id);
    }
    case 'seed': {
      const app = positiveInt(values.app, '--app');
      const users = positiveInt(values.users, '--users');
      const days = values.days === undefined ? 60 : positiveInt(values.days, '--days');
      if (days > 3650) throw new UsageError('--days must be at most 3650');
      return (c) => c.seed(app, users, days);
    }
    default:
      throw new UsageError(`unknown command: ${words.join(' ') || '(none)'}`);
  }
}

/** Human-readable rendering of a result: one `key: value` line per field. */
function humanize(result: object): string {
  return Object.entries(result)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join('\n');
}

/** What the CLI prints for a command's result. */
export function printed(result: object, json: boolean): CliResult {
  if (result instanceof CommandReport) {
    const stdout = json ? JSON.stringify(result.body) : result.text;
    return { exitCode: result.exitCode, stdout: `${stdout}\n`, stderr: '' };
  }
  return {
    exitCode: 0,
    stdout: (json ? JSON.stringify(result) : humanize(result)) + '\n',
    stderr: '',
  };
}

/**
 * The command line with the file of `--jwks FILE` replaced by its content, for a command handed
 * to the running service (admin socket): the file is read by the CLI, in its own directory and
 * with its user's rights, never by the service. A file that cannot be read is left for the usage
 * error.
 */
export function inlineJwksFile(argv: string[]): string[] {
  return argv.map((arg, i) => {
    if (argv[i - 1] !== '--jwks' || arg.trimStart().startsWith('{')) return arg;
    try {
      return readFileSync(arg, 'utf8');
    } catch {
      return arg;
    }
  });
}

export function wantsJson(argv: string[]): boolean {
  return argv.includes('--json');
}

/** Runs one command line; never throws, so the CLI and the admin socket report alike. */
export async function runCommand(
  argv: string[],
  commands: () => Promise<AdminCommands>,
): Promise<CliResult> {
  const json = wantsJson(argv);
  const fail = (exitCode: number, error: string, message: string): CliResult =>
    json
      ? { exitCode, stdout: JSON.stringify({ error, message }) + '\n', stderr: '' }
      : {
          exitCode,
          stdout: '',
          stderr: `error: ${message}\n${exitCode === 2 ? `\n${USAGE}\n` : ''}`,
        };
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
    if (values.help) return { exitCode: 0, stdout: USAGE + '\n', stderr: '' };
    const action = plan(positionals, values);
    return printed(await action(await commands()), json);
  } catch (error) {
    if (error instanceof UsageError) return fail(2, 'usage', error.message);
    if (
      error instanceof TypeError &&
      'code' in error &&
      String(error.code).startsWith('ERR_PARSE_ARGS')
    ) {
      return fail(2, 'usage', error.message);
    }
    if (error instanceof AppError) return fail(1, error.code, error.message);
    return fail(1, 'internal_error', error instanceof Error ? error.message : String(error));
  }
}
