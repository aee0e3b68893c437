import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { Clock } from '../../common/clock';
import type { ConfirmationTargetColumns } from './confirmation-target-columns';
import { PasskeyCeremony, type CeremonyPurpose } from './passkey-ceremony.entity';

/** How long a challenge may be answered (the browser prompt's timeout is shorter). */
export const CEREMONY_TTL_MS = 5 * 60_000;
/** What the browser is told to wait for the user. */
export const PROMPT_TIMEOUT_MS = 2 * 60_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID.test(value);

/** The action and target a confirmation ceremony (and its token) is bound to. */
export interface Binding extends ConfirmationTargetColumns {
  action: string;
}

/** The target columns of `binding` (all null without one: not a confirmation). */
export function targetColumnsOf(binding: Binding | undefined): ConfirmationTargetColumns {
  return {
    applicationId: binding?.applicationId ?? null,
    keyId: binding?.keyId ?? null,
    passkeyId: binding?.passkeyId ?? null,
    upstreamIdentityId: binding?.upstreamIdentityId ?? null,
    targetUserId: binding?.targetUserId ?? null,
    role: binding?.role ?? null,
    changeDigest: binding?.changeDigest ?? null,
    providerId: binding?.providerId ?? null,
    webhookId: binding?.webhookId ?? null,
  };
}

export interface NewCeremony {
  purpose: CeremonyPurpose;
  userId: string | null;
  challenge: string;
  userHandle?: string;
  binding?: Binding;
}

/** A ceremony taken for its one answer. */
export interface TakenCeremony {
  id: string;
  challenge: string;
  userHandle: string | null;
  binding: Binding | null;
}

interface TakenRow {
  challenge: string;
  user_handle: string | null;
  action: string | null;
  application_id: number | null;
  key_id: number | null;
  passkey_id: string | null;
  upstream_identity_id: number | null;
  target_user_id: string | null;
  role: string | null;
  change_digest: string | null;
  provider_id: string | null;
  webhook_id: number | null;
}

// Spends the ceremony in the statement that finds it: of two concurrent answers (on any
// instances), exactly one gets the row.
const TAKE_SQL = `
  WITH taken AS (
    UPDATE passkey_ceremonies SET used_at = $4
     WHERE id = $1 AND purpose = $2 AND user_id IS NOT DISTINCT FROM $3::bigint
       AND used_at IS NULL AND expires_at > $4
    RETURNING challenge, user_handle, action, application_id, key_id, passkey_id,
              upstream_identity_id, target_user_id, role, change_digest, provider_id,
              webhook_id)
  SELECT * FROM taken`;

/** Single-use WebAuthn challenges in PostgreSQL (table passkey_ceremonies). */
@Injectable()
export class PasskeyCeremonies {
  constructor(
    @InjectRepository(PasskeyCeremony) private readonly ceremonies: Repository<PasskeyCeremony>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async start(ceremony: NewCeremony): Promise<PasskeyCeremony> {
    const now = this.clock.now();
    const row = this.ceremonies.create({
      id: randomUUID(),
      purpose: ceremony.purpose,
      userId: ceremony.userId,
      challenge: ceremony.challenge,
      userHandle: ceremony.userHandle ?? null,
      action: ceremony.binding?.action ?? null,
      target: targetColumnsOf(ceremony.binding),
      expiresAt: new Date(now.getTime() + CEREMONY_TTL_MS),
      usedAt: null,
      createdAt: now,
    });
    await this.ceremonies.insert(row);
    return row;
  }

  /**
   * Spends the ceremony `id` of this purpose and user, or answers null when it is unknown,
   * someone else's, expired or already answered. Spent whether its answer then verifies or
   * not: a challenge gets one try.
   */
  async take(
    id: unknown,
    purpose: CeremonyPurpose,
    userId: string | null,
  ): Promise<TakenCeremony | null> {
    if (!isUuid(id)) return null;
    const rows = await this.dataSource.query<TakenRow[]>(TAKE_SQL, [
      id,
      purpose,
      userId,
      this.clock.now(),
    ]);
    const row = rows[0];
    if (!row) return null;
    return {
      id,
      challenge: row.challenge,
      userHandle: row.user_handle,
      binding:
        row.action === null
          ? null
          : {
              action: row.action,
              applicationId: row.application_id,
              keyId: row.key_id,
              passkeyId: row.passkey_id,
              upstreamIdentityId: row.upstream_identity_id,
              targetUserId: row.target_user_id === null ? null : String(row.target_user_id),
              role: row.role,
              changeDigest: row.change_digest,
              providerId: row.provider_id,
              webhookId: row.webhook_id,
            },
    };
  }
}
