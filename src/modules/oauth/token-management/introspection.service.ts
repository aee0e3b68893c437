import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { sha256Hex } from '../../../common/crypto/hash';
import { AppConfig } from '../../../config/app-config';
import { preparedQuery } from '../../../database/prepared-query';
import { statement, type Statement } from '../../../database/statement';
import { TOKEN_EXPIRY_COLUMN, usableTokenSql, type TokenKind } from '../../tokens/token-sql';
import { relationOf, relationUsable } from '../../users/relation-sql';
import { clientCredentials, invalidClient } from '../protocol/client-credentials';
import type { FormParams } from '../protocol/form-params';
import { authenticateClient } from '../token/rules/authenticate-client';
import { readPresentedToken, type TokenManagementParameter } from './token-type-hint';

/** RFC 7662 section 2.2: an active token's fields. */
export interface ActiveToken {
  active: true;
  scope: string;
  client_id: string;
  sub: string;
  username: string;
  exp: number;
  iat: number;
  token_type: 'bearer' | 'refresh_token';
  iss: string;
  aud: string;
}

/** RFC 7662 section 2.2: anything else is only `{"active": false}`, whatever the reason. */
export type Introspection = ActiveToken | { active: false };

type TokenRow = {
  scope: string;
  sub: string;
  username: string;
  issuedAt: Date;
  expiresAt: Date;
};

/** The token of `kind` with hash :tokenHash, of application :applicationId, usable at :now. */
const lookupSql = (kind: TokenKind): string =>
  `SELECT t.scope, t.user_id::text AS sub, u.username,
          t.created_at AS "issuedAt", t.${TOKEN_EXPIRY_COLUMN[kind]} AS "expiresAt"
   FROM oauth_tokens t
   JOIN users u ON u.id = t.user_id
   JOIN applications a ON a.id = t.application_id AND a.enabled
   JOIN app_users au ON ${relationOf('au', 't')} AND ${relationUsable('au')}
   WHERE ${usableTokenSql(kind, { hash: ':tokenHash', now: ':now' })} AND t.application_id = :applicationId`;

const LOOKUP_INPUTS = ['tokenHash', 'applicationId', 'now'] as const;

export const LOOKUP: Readonly<Record<TokenKind, Statement<(typeof LOOKUP_INPUTS)[number]>>> = {
  access: statement(lookupSql('access'), LOOKUP_INPUTS),
  refresh: statement(lookupSql('refresh'), LOOKUP_INPUTS),
};

/**
 * POST /api/oauth2/introspect (RFC 7662) for resource servers. Only `secret` clients may call
 * it (RFC 7662 section 2.1 requires authorization; a public client could otherwise probe
 * tokens), and each sees only its own application's tokens. A token is active under the
 * conditions userinfo applies (not revoked or expired, application enabled, relation usable),
 * so a user disabled through the application API is inactive on the very next call.
 */
@Injectable()
export class IntrospectionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  async introspect(
    params: FormParams<TokenManagementParameter>,
    authorization: string | undefined,
  ): Promise<Introspection> {
    const credentials = clientCredentials(params, authorization);
    const client = await authenticateClient(credentials, this.dataSource);
    if (client.clientAuthMethod === 'none') {
      throw invalidClient('Only confidential clients may introspect tokens');
    }
    const { token, lookupOrder } = readPresentedToken(params);
    const args = { tokenHash: sha256Hex(token), applicationId: client.id, now: this.clock.now() };
    for (const kind of lookupOrder) {
      // Named, so each connection plans it once (as the token statements, prepared-query.ts).
      const [row] = await preparedQuery<TokenRow>(
        this.dataSource,
        `oauth_introspect_${kind}`,
        LOOKUP[kind].text,
        LOOKUP[kind].values(args),
      );
      if (row) return this.active(row, kind, client.clientId);
    }
    return { active: false };
  }

  private active(row: TokenRow, kind: TokenKind, clientId: string): ActiveToken {
    return {
      active: true,
      scope: row.scope,
      client_id: clientId,
      sub: row.sub,
      username: row.username,
      exp: epochSeconds(row.expiresAt),
      iat: epochSeconds(row.issuedAt),
      // RFC 7662 section 2.2: token_type as in RFC 6749 section 5.1 for access tokens.
      token_type: kind === 'access' ? 'bearer' : 'refresh_token',
      iss: this.config.publicBaseUrl,
      aud: clientId,
    };
  }
}

/** RFC 7662 section 2.2: exp and iat are seconds since the epoch (RFC 7519 NumericDate). */
const epochSeconds = (at: Date): number => Math.floor(new Date(at).getTime() / 1000);
