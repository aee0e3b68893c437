import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import type { AuthorizationRequest } from './authorization-request';
import { PageError } from '../../pages/page-error';
import { newOpaqueToken } from '../../../common/crypto/opaque-token';
import { sha256Hex } from '../../../common/crypto/hash';
import { MAX_SEALED_LENGTH, RequestSealer } from './sealed-request';
import { msg } from '../../../common/i18n/i18n';
import type { PageLanguage } from '../../../common/i18n/page-language';

/** How long a user has to sign in and consent before the request must be started again. */
export const PENDING_TTL_SECONDS = 600;

export interface Pending {
  /** The sealed request, carried in the login/consent URLs and forms as `request`. */
  sealed: string;
  /** The random id inside: CSRF tokens are bound to it, and it is spent once answered. */
  id: string;
  expiresAt: Date;
  request: AuthorizationRequest;
}

/**
 * Validated authorization requests waiting while the user signs in or consents. Nothing is
 * stored for them (ADR 0003): the browser carries the request sealed (sealed-request.ts).
 * Only an answered request leaves a row, so that it cannot be answered twice.
 */
@Injectable()
export class PendingAuthorizationsService {
  private readonly sealer: RequestSealer;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {
    this.sealer = new RequestSealer(config.sessionSecret);
  }

  /** Seals the request; writes nothing. */
  create(request: AuthorizationRequest): string {
    const exp = Math.floor(this.clock.now().getTime() / 1000) + PENDING_TTL_SECONDS;
    const sealed = this.sealer.seal({ id: newOpaqueToken(), exp, request });
    if (sealed.length > MAX_SEALED_LENGTH) {
      // Only an unusually long registered redirect_uri can get here: state is capped before.
      throw new PageError(400, msg('errors.invalidRequestTitle'), msg('errors.requestTooLarge'));
    }
    return sealed;
  }

  /**
   * The pending request of a page, as `find`; found, it sets the page's language `lang` to the
   * one the request's ui_locales chose, for the rest of the request's pages and error pages.
   */
  async findForPage(sealed: unknown, lang: PageLanguage): Promise<Pending | null> {
    const pending = await this.find(sealed);
    if (pending) lang.useRequestLocale(pending.request.uiLocale);
    return pending;
  }

  /** The pending request, or null when it is not ours, has expired or was already answered. */
  async find(sealed: unknown): Promise<Pending | null> {
    const opened = this.sealer.open(sealed);
    if (!opened || opened.exp * 1000 <= this.clock.now().getTime()) return null;
    const spent = await this.dataSource.query<unknown[]>(
      'SELECT 1 FROM oauth_spent_authorization_requests WHERE id = $1',
      [sha256Hex(opened.id)],
    );
    if (spent.length > 0) return null;
    return {
      sealed: sealed as string,
      id: opened.id,
      expiresAt: new Date(opened.exp * 1000),
      request: opened.request,
    };
  }

  /**
   * Sets the page's language to the one a sealed request carries, without checking that it is
   * still live (the upstream callback's failures come before that check).
   */
  useLanguageOf(sealed: unknown, lang: PageLanguage): void {
    lang.useRequestLocale(this.sealer.open(sealed)?.request.uiLocale);
  }

  /**
   * Marks the request answered, so a form cannot be replayed; false when another submission
   * already did (only the one whose insert lands may go on).
   */
  async take(pending: Pending): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `INSERT INTO oauth_spent_authorization_requests (id, expires_at) VALUES ($1, $2)
       ON CONFLICT (id) DO NOTHING RETURNING id`,
      [sha256Hex(pending.id), pending.expiresAt],
    );
    return rows.length > 0;
  }
}
