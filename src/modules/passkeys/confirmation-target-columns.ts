import { Column } from 'typeorm';

/**
 * The target of a confirmation, as columns: embedded (`prefix: false`) in both
 * passkey_ceremonies and passkey_confirmations, so the token copies exactly what the challenge
 * was for. One column per target field of docs/console.md, "The confirmation exchange"; each
 * null unless the action is bound to it. No foreign keys: the record outlives its target.
 */
export class ConfirmationTargetColumns {
  @Column({ name: 'application_id', type: 'integer', nullable: true })
  applicationId!: number | null;

  @Column({ name: 'key_id', type: 'integer', nullable: true })
  keyId!: number | null;

  @Column({ name: 'passkey_id', type: 'uuid', nullable: true })
  passkeyId!: string | null;

  /** upstream.unbind: the upstream identity. */
  @Column({ name: 'upstream_identity_id', type: 'integer', nullable: true })
  upstreamIdentityId!: number | null;

  /** console_role.*: the user whose console role changes. */
  @Column({ name: 'target_user_id', type: 'bigint', nullable: true })
  targetUserId!: string | null;

  /** console_role.*: the role granted, or the role withdrawn. */
  @Column({ name: 'role', type: 'varchar', length: 16, nullable: true })
  role!: string | null;

  /**
   * The SHA-256 of the change a token confirms, so it confirms that change and no other:
   * client_settings.update the OAuth client settings (applications/client-settings.ts);
   * webhook.create and webhook.update_url the URL, webhook.replay its start
   * (console/webhooks/webhook-digests.ts).
   */
  @Column({ name: 'change_digest', type: 'varchar', length: 64, nullable: true })
  changeDigest!: string | null;

  /** webhook.*: the webhook endpoint. */
  @Column({ name: 'webhook_id', type: 'integer', nullable: true })
  webhookId!: number | null;

  /** upstream.bind: the provider to bind. */
  @Column({ name: 'provider_id', type: 'varchar', length: 64, nullable: true })
  providerId!: string | null;
}
