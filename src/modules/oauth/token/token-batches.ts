import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Metrics } from '../../../common/metrics/metrics';
import {
  NaturalBatcher,
  STATEMENT_BATCHING,
  type BatchStats,
} from '../../../common/sql/natural-batcher';
import {
  redeemCode,
  redeemCodes,
  type ConsumedCode,
  type Redemption,
} from './grants/authorization-code-sql';
import { clientKind, type ClientKind } from './redeeming-client';
import {
  rotateRefreshToken,
  rotateRefreshTokens,
  type RotatedGrant,
  type Rotation,
} from './grants/refresh-token-sql';

/** The largest batch of exchanges or refreshes in one statement. */
export const TOKEN_BATCH_MAX_SIZE = STATEMENT_BATCHING.maxSize;
/**
 * Batches of one kind running at once: with 2, PostgreSQL runs one batch while the next one's
 * requests are being read; measured against 1 in docs/performance/oauth.md ("Group commit").
 */
export const TOKEN_BATCHES_IN_FLIGHT = STATEMENT_BATCHING.maxInFlight;

const KINDS: readonly ClientKind[] = ['authenticated', 'public'];

/**
 * Group commit for the token endpoint: the code exchanges (and, separately, the refreshes) of one
 * client kind that arrive in one turn of the event loop, or while an earlier one is running, go
 * together as ONE statement and one commit (redeemCodes, rotateRefreshTokens); a lone request
 * runs today's single statement in the turn it arrived in. Each request gets the answer it would
 * have got alone: codes (refresh tokens) are never twice in one batch, and a batch whose
 * statement fails (a deadlock with another instance's batch, any error) runs each of its
 * requests alone instead.
 */
@Injectable()
export class TokenBatches implements OnApplicationShutdown {
  private readonly logger = new Logger('TokenBatches');
  private readonly exchanges: Record<ClientKind, NaturalBatcher<Redemption, ConsumedCode | null>>;
  private readonly refreshes: Record<ClientKind, NaturalBatcher<Rotation, RotatedGrant | null>>;

  constructor(@InjectDataSource() dataSource: DataSource, @Inject(Metrics) metrics: Metrics) {
    const common = {
      maxSize: TOKEN_BATCH_MAX_SIZE,
      maxInFlight: TOKEN_BATCHES_IN_FLIGHT,
      onBatchFailure: (error: unknown, size: number) => this.batchFailed(error, size),
    };
    const byKind = <T>(make: (kind: ClientKind) => T): Record<ClientKind, T> =>
      Object.fromEntries(KINDS.map((kind) => [kind, make(kind)])) as Record<ClientKind, T>;
    this.exchanges = byKind(
      (kind) =>
        new NaturalBatcher<Redemption, ConsumedCode | null>({
          ...common,
          onBatch: metrics.batchSizes(`token_exchange_${kind}`),
          key: (r) => r.code,
          runOne: (r) => redeemCode(dataSource, r),
          runBatch: (rs) => redeemCodes(dataSource, kind, rs),
        }),
    );
    this.refreshes = byKind(
      (kind) =>
        new NaturalBatcher<Rotation, RotatedGrant | null>({
          ...common,
          onBatch: metrics.batchSizes(`token_refresh_${kind}`),
          key: (r) => r.refreshToken,
          runOne: (r) => rotateRefreshToken(dataSource, r),
          runBatch: (rs) => rotateRefreshTokens(dataSource, kind, rs),
        }),
    );
  }

  /** redeemCode, batched with the concurrent redemptions of the same client kind. */
  redeem(r: Redemption): Promise<ConsumedCode | null> {
    return this.exchanges[clientKind(r.client)].run(r);
  }

  /** rotateRefreshToken, batched with the concurrent rotations of the same client kind. */
  rotate(r: Rotation): Promise<RotatedGrant | null> {
    return this.refreshes[clientKind(r.client)].run(r);
  }

  /** The batchers' debug counters (sizes seen, failed batches), by operation and client kind. */
  stats(): Record<string, BatchStats> {
    const stats: Record<string, BatchStats> = {};
    for (const kind of KINDS) {
      stats[`exchange_${kind}`] = this.exchanges[kind].stats;
      stats[`refresh_${kind}`] = this.refreshes[kind].stats;
    }
    return stats;
  }

  /** Items waiting for a running batch of each kind (tests wait on it instead of sleeping). */
  waiting(operation: 'exchange' | 'refresh', kind: ClientKind): number {
    return (operation === 'exchange' ? this.exchanges : this.refreshes)[kind].waiting;
  }

  onApplicationShutdown(): void {
    const used = Object.entries(this.stats()).filter(([, s]) => s.batches > 0);
    if (used.length === 0) return;
    this.logger.log(`batch sizes seen: ${JSON.stringify(Object.fromEntries(used))}`);
  }

  private batchFailed(error: unknown, size: number): void {
    const code = (error as { code?: unknown }).code;
    const reason = typeof code === 'string' ? code : error instanceof Error ? error.message : '';
    this.logger.warn(`a batch of ${size} token requests failed (${reason}); each runs alone`);
  }
}
