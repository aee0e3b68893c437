import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { IdTokenSigningAlg } from '../../../common/crypto/signing-algs';
import type { IssuerPath } from '../../signing-keys/issuers';
import { LEASE_MS } from '../../webhooks/webhook-leases';
import type { AttemptResult } from './backchannel-outcome';

/** A queued logout as claimed for one attempt, with its client's registration. */
export interface ClaimedLogout {
  id: string;
  application_id: number;
  sid: string;
  user_id: string;
  issuer_path: IssuerPath | null;
  attempts: number;
  created_at: Date;
  lease_until: Date;
  /** The client's logout URI now; null when it was removed after the logout was queued. */
  url: string | null;
  client_id: string;
  alg: IdTokenSigningAlg | null;
}

/** What an attempt records: its result, and the answer (or the error) that decided it. */
export interface AttemptRecord extends AttemptResult {
  statusCode: number | null;
  error: string | null;
  at: Date;
}

/**
 * The statements of the back-channel logout engine on backchannel_logouts, with the webhook
 * engine's lease discipline (docs/webhooks.md, "Several instances"): due rows are claimed with
 * a lease in one statement (FOR UPDATE SKIP LOCKED, so instances never wait on each other), and
 * every later write is guarded by this instance's lease, so that once a lease has expired and
 * another instance has taken the row, nothing this one does lands.
 */
@Injectable()
export class BackchannelLeases {
  /** This instance's lease owner name. */
  readonly owner = randomUUID();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Up to `limit` pending, due logouts without a live lease, never one in flight here (`busy`). */
  claim(now: Date, limit: number, busy: string[]): Promise<ClaimedLogout[]> {
    return this.dataSource.query<ClaimedLogout[]>(
      `WITH claimed AS (
         UPDATE backchannel_logouts SET lease_owner = $1, lease_until = $2
         WHERE id IN (
           SELECT id FROM backchannel_logouts
           WHERE status = 'pending' AND next_attempt_at <= $3
             AND (lease_until IS NULL OR lease_until < $3)
             AND NOT (id = ANY($5::bigint[]))
           ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED)
         AND (lease_until IS NULL OR lease_until < $3)
         RETURNING id, application_id, sid, user_id, issuer_path, attempts, created_at,
                   lease_until)
       SELECT claimed.*, a.backchannel_logout_uri AS url, a.client_id,
              a.id_token_signed_response_alg AS alg
       FROM claimed JOIN applications a ON a.id = claimed.application_id`,
      [this.owner, new Date(now.getTime() + LEASE_MS), now, limit, busy],
    );
  }

  /** The attempt's result, and the lease given back; false when the lease was lost meanwhile. */
  async record(logout: ClaimedLogout, attempt: AttemptRecord): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `WITH recorded AS (
         UPDATE backchannel_logouts
         SET status = $3::varchar, attempts = $4, next_attempt_at = $5, last_status_code = $6,
             last_error = $7, last_attempt_at = $8::timestamptz,
             delivered_at = CASE WHEN $3::varchar = 'delivered' THEN $8::timestamptz END,
             lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND lease_owner = $2 RETURNING id)
       SELECT id FROM recorded`,
      [
        logout.id,
        this.owner,
        attempt.status,
        attempt.attempts,
        attempt.next,
        attempt.statusCode,
        attempt.error,
        attempt.at,
      ],
    );
    return rows.length > 0;
  }

  async release(logoutId: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE backchannel_logouts SET lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND lease_owner = $2`,
      [logoutId, this.owner],
    );
  }
}
