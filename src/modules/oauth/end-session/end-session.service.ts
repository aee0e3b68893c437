import { Inject, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Clock } from '../../../common/clock';
import { Aead } from '../../../common/crypto/aead';
import { AppConfig } from '../../../config/app-config';
import { Application } from '../../applications/application.entity';
import { SigningKeysService } from '../../signing-keys/signing-keys.service';
import { PageError } from '../../pages/page-error';
import { checkState } from '../authorize/checks/check-state';
import { type Params } from '../../../common/http/params';
import { nonEmptyParam } from '../protocol/params';
import { msg } from '../../../common/i18n/i18n';

/** A validated RP-initiated logout request (OpenID Connect RP-Initiated Logout 1.0 section 2). */
export interface EndSessionRequest {
  /** `sub` of a valid id_token_hint: the End-User the client asks to sign out. */
  hintSubject?: string;
  /** The registered post_logout_redirect_uri with `state`; absent: the "Signed out" page. */
  redirectTo?: string;
  /** The client's name, for the link to redirectTo on the "Signed out" page. */
  applicationName?: string;
}

/** Where the "Signed out" page links to, when it does not redirect (sealed in the form). */
export interface ReturnLink {
  redirectTo: string;
  applicationName?: string;
}

// An id_token of ours is well under 4 kB; a longer hint is not ours and is not parsed.
const MAX_HINT_LENGTH = 8192;
// How long the confirmation form's sealed request stays good (as a pending authorization).
const SEALED_TTL_SECONDS = 600;
// Domain separation: this key and these ciphertexts serve no other purpose.
const HKDF_INFO = 'idsvc oauth2 logout request aes-256-gcm v1';

const refuse = (message: string): PageError =>
  new PageError(400, msg('errors.invalidLogoutTitle'), message);

interface Hint {
  sub: string;
  audiences: string[];
  azp?: string;
}

/**
 * The end_session_endpoint's rules (docs/oidc.md, "Logout (RP-initiated)"): the id_token_hint
 * must be ours (expired is fine), client_id must agree with it, and post_logout_redirect_uri
 * must be registered for that client exactly. Every failure is an error page, never a redirect.
 */
@Injectable()
export class EndSessionService {
  private readonly aead: Aead;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @InjectRepository(Application) private readonly applications: Repository<Application>,
    private readonly signingKeys: SigningKeysService,
    private readonly clock: Clock,
  ) {
    this.aead = new Aead(config.sessionSecret, HKDF_INFO, 'v1.');
  }

  async validate(params: Params): Promise<EndSessionRequest> {
    const hint = await this.hintOf(nonEmptyParam(params, 'id_token_hint'));
    const clientId = clientOf(hint, nonEmptyParam(params, 'client_id'));
    const redirectUri = nonEmptyParam(params, 'post_logout_redirect_uri');
    const state = checkState(params);
    const application = clientId === undefined ? undefined : await this.application(clientId);
    if (redirectUri === undefined) return { hintSubject: hint?.sub };
    // Section 3: without the client there is no list to match the URI against.
    if (application === undefined) {
      throw refuse('post_logout_redirect_uri needs an id_token_hint or a client_id.');
    }
    if (!application.postLogoutRedirectUris.includes(redirectUri)) {
      throw refuse('post_logout_redirect_uri is not registered for this application.');
    }
    return {
      hintSubject: hint?.sub,
      redirectTo: withState(redirectUri, state),
      applicationName: application.name,
    };
  }

  /** The validated link, sealed for the confirmation form (the browser cannot alter it). */
  seal(link: ReturnLink): string {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + SEALED_TTL_SECONDS;
    return this.aead.seal(JSON.stringify({ exp, ...link }));
  }

  /** The sealed link, or null when it is not ours or has expired. */
  open(sealed: unknown): ReturnLink | null {
    const text = this.aead.open(sealed, undefined, MAX_HINT_LENGTH);
    if (text === null) return null;
    const { exp, redirectTo, applicationName } = JSON.parse(text) as ReturnLink & { exp: number };
    return exp * 1000 > this.clock.now().getTime() ? { redirectTo, applicationName } : null;
  }

  /** Section 2: the OP SHOULD accept an expired hint, but only one it issued itself. */
  private async hintOf(value: string | undefined): Promise<Hint | undefined> {
    if (value === undefined) return undefined;
    const claims =
      value.length <= MAX_HINT_LENGTH
        ? await this.signingKeys.verify(value, { ignoreExpiry: true })
        : null;
    const aud = claims?.aud;
    const audiences = (typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : []).filter(
      (entry): entry is string => typeof entry === 'string',
    );
    if (!claims || typeof claims.sub !== 'string' || audiences.length === 0) {
      throw refuse('The id_token_hint was not issued by this service.');
    }
    const azp = typeof claims.azp === 'string' ? claims.azp : undefined;
    return { sub: claims.sub, audiences, azp };
  }

  private async application(clientId: string): Promise<Application> {
    const found = clientId.length <= 64 ? await this.applications.findOneBy({ clientId }) : null;
    // A disabled application gets no redirect either (it is refused everything, docs/contract/oauth.md#authorization-response).
    if (!found || !found.enabled) throw refuse('No enabled application has this client_id.');
    return found;
  }
}

/** The client the request speaks for: the hint's audience, which client_id must agree with. */
function clientOf(hint: Hint | undefined, clientId: string | undefined): string | undefined {
  if (hint === undefined) return clientId;
  if (clientId !== undefined) {
    // Section 2: client_id, when sent with a hint, MUST match its aud.
    if (!hint.audiences.includes(clientId)) {
      throw refuse('client_id does not match the audience of the id_token_hint.');
    }
    return clientId;
  }
  if (hint.audiences.length === 1) return hint.audiences[0];
  // OpenID Connect Core 1.0 section 2: with several audiences, azp names the client.
  return hint.azp !== undefined && hint.audiences.includes(hint.azp) ? hint.azp : undefined;
}

/** Section 3: state is passed back unchanged as a query parameter; nothing else is added. */
function withState(redirectUri: string, state: string | null): string {
  if (state === null) return redirectUri;
  const url = new URL(redirectUri);
  url.searchParams.set('state', state);
  return url.toString();
}
