import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { ApiProperty } from '@nestjs/swagger';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import { DataSource, EntityManager, Repository } from 'typeorm';
import { Clock } from '../../../../common/clock';
import { sha256Hex } from '../../../../common/crypto/hash';
import { newOpaqueToken } from '../../../../common/crypto/opaque-token';
import { PasskeyAssertions } from '../../../passkeys/passkey-assertions';
import {
  PasskeyCeremonies,
  PROMPT_TIMEOUT_MS,
  targetColumnsOf,
} from '../../../passkeys/passkey-ceremonies';
import {
  bindingOf,
  CONFIRMATION_TTL_MS,
  type ConfirmationAction,
  type ConfirmationTarget,
} from './confirmation-actions';
import { PasskeyConfirmation } from './passkey-confirmation.entity';
import { PasskeyCredential } from '../../../passkeys/passkey-credential.entity';
import type { ConsoleActor } from '../../session/console-session';
import {
  confirmationRequired,
  passkeyNotRegistered,
  recentSignInRequired,
} from '../../../passkeys/passkeys.errors';
import { isRecentPrimarySignIn } from '../../../sessions/recent-sign-in';
import { RelyingParty } from '../../../passkeys/relying-party';

/** Answer of POST /api/console/confirmations. */
export class ConfirmationStart {
  @ApiProperty({ format: 'uuid' }) confirmationId!: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description:
      "PublicKeyCredentialRequestOptionsJSON for the user's own passkeys, userVerification required",
  })
  options!: object;
  @ApiProperty({ format: 'date-time', description: 'Answer the prompt before this' })
  expiresAt!: string;
}

/** Answer of POST /api/console/confirmations/{confirmationId}. */
export class ConfirmationGrant {
  @ApiProperty({
    description: 'Send once as the X-Passkey-Confirmation header of the confirmed operation',
  })
  confirmationToken!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
}

// Spends the token only if it is bound to exactly this user, action and target and is live:
// one statement, so a token is good for one operation across all instances, and a mismatched
// use leaves it untouched.
const CONSUME_SQL = `
  WITH spent AS (
    UPDATE passkey_confirmations SET spent_at = $8
     WHERE token_hash = $1 AND user_id = $2::bigint AND action = $3
       AND application_id IS NOT DISTINCT FROM $4::integer
       AND key_id IS NOT DISTINCT FROM $5::integer
       AND passkey_id IS NOT DISTINCT FROM $6::uuid
       AND upstream_identity_id IS NOT DISTINCT FROM $7::integer
       AND target_user_id IS NOT DISTINCT FROM $9::bigint
       AND role IS NOT DISTINCT FROM $10::varchar
       AND change_digest IS NOT DISTINCT FROM $11::varchar
       AND provider_id IS NOT DISTINCT FROM $12::varchar
       AND webhook_id IS NOT DISTINCT FROM $13::integer
       AND spent_at IS NULL AND expires_at > $8
    RETURNING id)
  SELECT id FROM spent`;

const MAX_TOKEN_LENGTH = 100;

/**
 * The passkey confirmation exchange (docs/console.md): a challenge for one action on one
 * target, answered with an assertion of one of the user's passkeys, yields a short-lived,
 * single-use token that the operation then spends with `consume`.
 */
@Injectable()
export class PasskeyConfirmations {
  constructor(
    @InjectRepository(PasskeyCredential)
    private readonly credentials: Repository<PasskeyCredential>,
    @InjectRepository(PasskeyConfirmation)
    private readonly confirmations: Repository<PasskeyConfirmation>,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly ceremonies: PasskeyCeremonies,
    private readonly assertions: PasskeyAssertions,
    private readonly rp: RelyingParty,
    private readonly clock: Clock,
  ) {}

  /**
   * A challenge for `action` on `target` (the caller has checked the role and that the target
   * exists). 409 passkey_not_registered when the user has no passkey to answer it with.
   */
  async begin(
    userId: string,
    action: ConfirmationAction,
    target: ConfirmationTarget,
  ): Promise<ConfirmationStart> {
    const binding = bindingOf(action, target);
    if (!binding) throw new Error(`incomplete target for ${action}`);
    const mine = await this.credentials.find({
      where: { userId },
      select: { credentialId: true, transports: true },
      order: { createdAt: 'ASC' },
    });
    if (mine.length === 0) throw passkeyNotRegistered();
    const options = await generateAuthenticationOptions({
      rpID: this.rp.id,
      allowCredentials: mine.map((c) => ({ id: c.credentialId, transports: c.transports })),
      userVerification: 'required',
      timeout: PROMPT_TIMEOUT_MS,
    });
    const ceremony = await this.ceremonies.start({
      purpose: 'confirmation',
      userId,
      challenge: options.challenge,
      binding,
    });
    return {
      confirmationId: ceremony.id,
      options,
      expiresAt: ceremony.expiresAt.toISOString(),
    };
  }

  /**
   * Verifies the assertion for the confirmation and issues its token; else 403. `requestId`: the
   * HTTP request's id, for the log line of a refused assertion.
   */
  async confirm(
    userId: string,
    confirmationId: string,
    response: unknown,
    requestId: string,
  ): Promise<ConfirmationGrant> {
    const ceremony = await this.ceremonies.take(confirmationId, 'confirmation', userId);
    if (!ceremony?.binding) throw confirmationRequired();
    const credential = await this.assertions.verify(
      ceremony.challenge,
      response,
      userId,
      requestId,
    );
    if (!credential) throw confirmationRequired();
    const token = newOpaqueToken();
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + CONFIRMATION_TTL_MS);
    await this.confirmations.insert({
      id: ceremony.id,
      tokenHash: sha256Hex(token),
      userId,
      credentialRowId: credential.id,
      action: ceremony.binding.action,
      target: targetColumnsOf(ceremony.binding),
      expiresAt,
      spentAt: null,
      createdAt: now,
    });
    return { confirmationToken: token, expiresAt: expiresAt.toISOString() };
  }

  /**
   * The step-up of an account change that a user without a passkey may also make (binding an
   * upstream account): with a passkey, the confirmation `token` for `action` on `target`, spent
   * here; without one, a password (or upstream) sign-in within the last 5 minutes, else 403
   * recent_sign_in_required (`what` names the change in its message).
   */
  async stepUp(
    actor: ConsoleActor,
    what: string,
    action: ConfirmationAction,
    target: ConfirmationTarget,
    token: string | undefined,
  ): Promise<void> {
    const hasPasskey = await this.credentials.existsBy({ userId: actor.user.id });
    if (hasPasskey) return this.consume(actor.user.id, action, target, token);
    if (!isRecentPrimarySignIn(actor, this.clock.now())) throw recentSignInRequired(what);
  }

  /**
   * Spends the token atomically (single use) or throws AppError(passkey_confirmation_required,
   * 403). Pass the transaction of the confirmed change: if the change or its audit record then
   * fails, the token is not spent either.
   */
  async consume(
    userId: string,
    action: ConfirmationAction,
    target: ConfirmationTarget,
    token: string | undefined,
    manager?: EntityManager,
  ): Promise<void> {
    const binding = bindingOf(action, target);
    if (!binding || typeof token !== 'string' || token === '' || token.length > MAX_TOKEN_LENGTH) {
      throw confirmationRequired();
    }
    const spent = await (manager ?? this.dataSource.manager).query<{ id: string }[]>(CONSUME_SQL, [
      sha256Hex(token),
      userId,
      binding.action,
      binding.applicationId,
      binding.keyId,
      binding.passkeyId,
      binding.upstreamIdentityId,
      this.clock.now(),
      binding.targetUserId,
      binding.role,
      binding.changeDigest,
      binding.providerId,
      binding.webhookId,
    ]);
    if (spent.length === 0) throw confirmationRequired();
  }
}
