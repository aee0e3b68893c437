import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../../../common/clock';
import { sha256Hex } from '../../../common/crypto/hash';
import { AppConfig } from '../../../config/app-config';
import { INSERT_PUSHED_REQUEST, TAKE_PUSHED_REQUEST } from './pushed-requests-sql';
import { newRequestUri } from './request-uri';

/** The answer of the pushed authorization request endpoint (RFC 9126 section 2.2). */
export interface PushedRequestUri {
  requestUri: string;
  expiresIn: number;
}

/**
 * Where pushed authorization requests wait for their one use: PostgreSQL, so that every instance
 * behind the load balancer finds a request pushed to another, and a use on one of them is a use
 * everywhere. Keyed by the SHA-256 of the request_uri; the request_uri itself is returned once
 * and never stored or logged.
 */
@Injectable()
export class PushedRequestStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(AppConfig) private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** Stores `parameters` for the client; null when the client has too many waiting (the cap). */
  async save(
    applicationId: number,
    parameters: Record<string, string>,
  ): Promise<PushedRequestUri | null> {
    const requestUri = newRequestUri();
    const now = this.clock.now();
    const expiresIn = this.config.parRequestUriTtlSeconds;
    const rows = await this.dataSource.query<unknown[]>(
      INSERT_PUSHED_REQUEST.text,
      INSERT_PUSHED_REQUEST.values({
        id: sha256Hex(requestUri),
        applicationId,
        parameters: JSON.stringify(parameters),
        expiresAt: new Date(now.getTime() + expiresIn * 1000),
        now,
        cap: this.config.parMaxPendingPerClient,
      }),
    );
    return rows.length === 0 ? null : { requestUri, expiresIn };
  }

  /**
   * The parameters pushed with `requestUri` by the client `applicationId`, taken for their one
   * use; null when it is unknown, used, expired or another client's (one answer for all four).
   */
  async take(requestUri: string, applicationId: number): Promise<Record<string, string> | null> {
    const rows = await this.dataSource.query<{ parameters: Record<string, string> }[]>(
      TAKE_PUSHED_REQUEST.text,
      TAKE_PUSHED_REQUEST.values({
        id: sha256Hex(requestUri),
        applicationId,
        now: this.clock.now(),
      }),
    );
    return rows[0]?.parameters ?? null;
  }
}
