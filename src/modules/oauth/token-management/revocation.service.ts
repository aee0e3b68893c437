import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { sha256Hex } from '../../../common/crypto/hash';
import { EventsService } from '../../events/events.service';
import type { TokenKind } from '../../tokens/token-sql';
import { TokensRepository, type RevokedGrant } from '../../tokens/tokens.repository';
import { clientCredentials } from '../client-auth/client-credentials';
import type { FormParams } from '../protocol/params';
import { authenticateClient } from '../client-auth/authenticate-client';
import { readPresentedToken, type TokenManagementParameter } from './token-type-hint';

/**
 * POST /api/oauth2/revoke (RFC 7009). The client authenticates as at the token endpoint (public
 * clients by client_id: RFC 7009 section 5); only its own tokens are found. Every outcome that
 * is not a request or authentication error is the same empty 200, whether something was revoked
 * or the token was unknown, expired, already revoked or another client's (RFC 7009 section 2.2:
 * invalid tokens do not cause an error; nothing tells a client about another's tokens).
 */
@Injectable()
export class RevocationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly tokens: TokensRepository,
    private readonly events: EventsService,
    private readonly clock: Clock,
  ) {}

  async revoke(
    params: FormParams<TokenManagementParameter>,
    authorization: string | undefined,
  ): Promise<void> {
    const credentials = clientCredentials(params, authorization);
    const client = await authenticateClient(credentials, this.dataSource, 'revocation_endpoint');
    const { token, lookupOrder } = readPresentedToken(params);
    const hash = sha256Hex(token);
    await this.dataSource.transaction(async (manager) => {
      for (const kind of lookupOrder) {
        const grant = await this.revokeKind(manager, kind, client.id, hash);
        if (grant === null) continue;
        await this.events.record(manager, {
          applicationId: client.id,
          eventType: 'token_revoked',
          userId: grant.userId,
          scope: grant.scope,
          description: `${kind} token revoked via the revocation endpoint: ${grant.revoked} token(s) revoked`,
        });
        return;
      }
    });
  }

  /** A refresh token ends its family; an access token ends its row (RFC 7009 section 2.1). */
  private revokeKind(
    manager: EntityManager,
    kind: TokenKind,
    applicationId: number,
    hash: string,
  ): Promise<RevokedGrant | null> {
    const now = this.clock.now();
    return kind === 'refresh'
      ? this.tokens.revokeRefreshFamily(manager, applicationId, hash, now)
      : this.tokens.revokeAccessToken(manager, applicationId, hash, now);
  }
}
