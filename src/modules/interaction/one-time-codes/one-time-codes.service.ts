import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHmac, hkdfSync, randomInt, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { Clock } from '../../../common/clock';
import { AppConfig } from '../../../config/app-config';
import { emailKey } from '../../users/account-names';
import { CodeQuota, type QuotaOutcome } from './code-quota';
import type { CodePurpose } from './one-time-code.entity';

/** How long a code can be entered. */
export const CODE_TTL_SECONDS = 15 * 60;
/** Wrong codes entered before a code is spent. */
export const MAX_CODE_ATTEMPTS = 5;
/** Digits of a code: 10^6 codes, five tries each, a handful of codes an hour per address. */
export const CODE_DIGITS = 6;

const HKDF_INFO = 'idsvc one-time code hmac-sha256 v1';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DIGITS = new RegExp(`^[0-9]{${CODE_DIGITS}}$`);

/** What to send a code for. */
export interface CodeRequest {
  purpose: CodePurpose;
  /** The recipient; lower-cased before it is stored. */
  email: string;
  /** The account it is for; null for a sign-up. */
  userId: string | null;
  /** Kept with the code, handed back when it is entered (e.g. a sign-up's form). */
  payload?: Record<string, unknown>;
  /** The client address asking (counted by CodeQuota). */
  clientAddress: string;
}

export type IssueOutcome =
  /** `code` goes into the email only; `id` goes into the form and the link. */
  | { kind: 'issued'; id: string; code: string; expiresAt: Date }
  | { kind: 'throttled'; retryAfterSeconds: number };

/** An entered code that was accepted, with what was kept for it. */
export interface AcceptedCode {
  id: string;
  purpose: CodePurpose;
  userId: string | null;
  email: string;
  payload: Record<string, unknown> | null;
}

export type ConsumeOutcome =
  | { kind: 'accepted'; code: AcceptedCode }
  /** Wrong, expired, spent, unknown or for another purpose: the answer never says which. */
  | { kind: 'refused' };

// Counts the attempt and, when the HMAC matches (and the code is the account's $5, when given),
// spends the code, in one statement: two requests with the right code cannot both have it
// accepted, and a wrong one always counts. The right code entered by another account is a wrong
// try. The fifth wrong try spends the code (consumed_at set, never accepted).
const ATTEMPT_SQL = `
  WITH tried AS (
    UPDATE one_time_codes
       SET attempts = attempts + 1,
           consumed_at = CASE WHEN (code_hash = $3 AND ($5::bigint IS NULL OR user_id = $5))
                                OR attempts + 1 >= ${MAX_CODE_ATTEMPTS}
                              THEN $4::timestamptz END
     WHERE id = $1 AND purpose = $2 AND consumed_at IS NULL AND expires_at > $4
    RETURNING id, purpose, user_id, email, payload,
              code_hash = $3 AND ($5::bigint IS NULL OR user_id = $5) AS accepted)
  SELECT id, purpose, user_id AS "userId", email, payload, accepted FROM tried`;

// A new code of one purpose replaces the earlier ones still open for the same account or address.
const SUPERSEDE_SQL = `
  UPDATE one_time_codes SET consumed_at = $4
   WHERE purpose = $1 AND consumed_at IS NULL
     AND (CASE WHEN $2::bigint IS NULL THEN user_id IS NULL AND email = $3 ELSE user_id = $2::bigint END)`;

/**
 * The emailed one-time codes of sign-up, email verification and password reset
 * (docs/accounts.md, "One-time codes"): six digits, 15 minutes, single use, five tries, hashed
 * at rest with a key derived from SESSION_SECRET, a limited number per address and account.
 */
@Injectable()
export class OneTimeCodes {
  private readonly key: Buffer;

  constructor(
    @Inject(AppConfig) config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly quota: CodeQuota,
    private readonly clock: Clock,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', config.sessionSecret, '', HKDF_INFO, 32));
  }

  /**
   * A new code for `request`, unless the address, account or client has had its share this hour.
   * Earlier open codes of the same purpose for the same account (or sign-up address) stop working.
   */
  async issue(request: CodeRequest, manager?: EntityManager): Promise<IssueOutcome> {
    const email = emailKey(request.email);
    const quota = await this.quota.take(email, request.userId, request.clientAddress);
    if (quota.kind === 'throttled') return quota;
    const id = randomUUID();
    const code = String(randomInt(0, 10 ** CODE_DIGITS)).padStart(CODE_DIGITS, '0');
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + CODE_TTL_SECONDS * 1000);
    await (manager ?? this.dataSource.manager).transaction(async (tx) => {
      await tx.query(SUPERSEDE_SQL, [request.purpose, request.userId, email, now]);
      await tx.insert('one_time_codes', {
        id,
        purpose: request.purpose,
        userId: request.userId,
        email,
        codeHash: this.hash(id, code),
        payload: request.payload ?? null,
        attempts: 0,
        expiresAt,
        consumedAt: null,
        createdAt: now,
      });
    });
    return { kind: 'issued', id, code, expiresAt };
  }

  /**
   * The answer to give when no code may be sent (an address no account uses, for a password
   * reset): counted like a real one, and an id that looks like one and is never accepted, so the
   * answer and the limits tell nothing about which addresses exist.
   */
  async decoy(email: string, clientAddress: string): Promise<QuotaOutcome & { id: string }> {
    const quota = await this.quota.take(email, null, clientAddress);
    return { ...quota, id: randomUUID() };
  }

  /**
   * Checks an entered code (in `manager`'s transaction, so what the code allows commits with it).
   * Accepted once; every try counts, and the fifth wrong one spends the code. With `forUser`, a
   * code sent for another account is a wrong try: counted, never spent by the right digits.
   */
  async consume(
    manager: EntityManager,
    purpose: CodePurpose,
    id: unknown,
    code: unknown,
    forUser?: string,
  ): Promise<ConsumeOutcome> {
    if (typeof id !== 'string' || !UUID.test(id)) return { kind: 'refused' };
    const entered = typeof code === 'string' ? code.replace(/\s+/g, '') : '';
    // A malformed entry still counts as a try, against a hash that never matches.
    const hash = DIGITS.test(entered) ? this.hash(id, entered) : '';
    const rows = await manager.query<(AcceptedCode & { accepted: boolean })[]>(ATTEMPT_SQL, [
      id,
      purpose,
      hash,
      this.clock.now(),
      forUser ?? null,
    ]);
    const row = rows[0];
    if (!row?.accepted) return { kind: 'refused' };
    const { id: codeId, userId, email, payload } = row;
    return { kind: 'accepted', code: { id: codeId, purpose, userId, email, payload } };
  }

  private hash(id: string, code: string): string {
    return createHmac('sha256', this.key).update(`${id}:${code}`).digest('hex');
  }
}
