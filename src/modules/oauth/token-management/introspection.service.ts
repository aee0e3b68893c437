import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { sha256Hex } from '../../../common/crypto/hash';
import { Metrics } from '../../../common/metrics/metrics';
import { AppConfig } from '../../../config/app-config';
import { NaturalBatcher, STATEMENT_BATCHING } from '../../../common/sql/natural-batcher';
import type { TokenKind } from '../../tokens/token-sql';
import { clientCredentials, invalidClient } from '../client-auth/client-credentials';
import type { FormParams } from '../protocol/params';
import { verifyClient } from '../client-auth/authenticate-client';
import {
  introspectMany,
  introspectOne,
  type IntrospectionLookup,
  type IntrospectionRow,
  type TokenRow,
} from './introspection-sql';
import {
  readPresentedToken,
  type PresentedToken,
  type TokenManagementParameter,
} from './token-type-hint';

/** RFC 7662 section 2.2: an active token's fields. */
export interface ActiveToken {
  active: true;
  scope: string;
  client_id: string;
  sub: string;
  username: string;
  exp: number;
  iat: number;
  token_type: 'bearer' | 'DPoP' | 'refresh_token';
  iss: string;
  aud: string;
  /** A DPoP-bound access token's key (RFC 9449 section 6.2): the proof's key must match it. */
  cnf?: { jkt: string };
}

/** RFC 7662 section 2.2: anything else is only `{"active": false}`, whatever the reason. */
export type Introspection = ActiveToken | { active: false };

/**
 * POST /api/oauth2/introspect (RFC 7662) for resource servers. Only `secret` clients may call
 * it (RFC 7662 section 2.1 requires authorization; a public client could otherwise probe
 * tokens), and each sees only its own application's tokens. A token is active under the
 * conditions userinfo applies (not revoked or expired, application enabled, relation usable),
 * so a user disabled through the application API is inactive on the very next call.
 */
@Injectable()
export class IntrospectionService {
  /**
   * The client and the token of introspections that arrive in one turn of the event loop, or
   * while earlier ones are running, are read together, in one statement
   * (src/common/sql/natural-batcher.ts), as userinfo's lookups: resource servers introspect on
   * every request. A lone request runs the single statement in the turn it arrived in. Nothing
   * is cached: a revoked token, a reset secret or a disabled application is seen by the very
   * next request, on every instance.
   */
  private readonly lookups: NaturalBatcher<IntrospectionLookup, IntrospectionRow | null>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.lookups = new NaturalBatcher<IntrospectionLookup, IntrospectionRow | null>({
      ...STATEMENT_BATCHING,
      onBatch: metrics.batchSizes('introspection_lookup'),
      runOne: (lookup) => introspectOne(dataSource, lookup),
      runBatch: (lookups) => introspectMany(dataSource, lookups),
    });
  }

  async introspect(
    params: FormParams<TokenManagementParameter>,
    authorization: string | undefined,
  ): Promise<Introspection> {
    const credentials = clientCredentials(params, authorization);
    const presented = presentedOrError(params);
    const found = await this.lookups.run({
      clientId: credentials.clientId,
      tokenHash: presented instanceof Error ? null : sha256Hex(presented.token),
      now: this.clock.now(),
    });
    // Client authentication is one SHA-256 comparison on the row the lookup read with the token
    // (or the client assertion verified with the keys that row holds).
    const client = await verifyClient(
      credentials,
      found,
      this.dataSource,
      'introspection_endpoint',
    );
    if (client.clientAuthMethod === 'none') {
      throw invalidClient('Only confidential clients may introspect tokens');
    }
    if (presented instanceof Error) throw presented;
    for (const kind of presented.lookupOrder) {
      const row = client[`${kind}_token`];
      if (row) return this.active(row, kind, client.clientId);
    }
    return { active: false };
  }

  private active(row: TokenRow, kind: TokenKind, clientId: string): ActiveToken {
    const bound = row.jkt === null ? {} : { cnf: { jkt: row.jkt } };
    return {
      active: true,
      scope: row.scope,
      client_id: clientId,
      sub: row.sub,
      username: row.username,
      exp: row.exp,
      iat: row.iat,
      // RFC 7662 section 2.2: token_type as in RFC 6749 section 5.1 for access tokens (RFC
      // 9449 section 6.2: `DPoP` for a bound one, with its key in `cnf`).
      token_type: kind === 'refresh' ? 'refresh_token' : row.jkt === null ? 'bearer' : 'DPoP',
      iss: this.config.publicBaseUrl,
      aud: clientId,
      ...bound,
    };
  }
}

/**
 * The presented token, or the error reading it, which is thrown only after client authentication
 * (the order of checks in docs/oauth.md): the lookup then reads the client alone.
 */
function presentedOrError(params: FormParams<TokenManagementParameter>): PresentedToken | Error {
  try {
    return readPresentedToken(params);
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
}
