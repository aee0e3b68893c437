import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { User } from '../users/user.entity';

/**
 * A confirmation token, issued after a verified assertion: single use, bound to its user,
 * action and target. Only the SHA-256 of the token is stored.
 */
@Entity({ name: 'passkey_confirmations' })
export class PasskeyConfirmation {
  /** The id of the confirmation ceremony it came from: one token per ceremony. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_passkey_confirmations' })
  id!: string;

  @Index('uq_passkey_confirmations_token_hash', { unique: true })
  @Column({ name: 'token_hash', type: 'varchar', length: 64 })
  tokenHash!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_passkey_confirmations_user' })
  user?: User;

  /** The passkey whose assertion confirmed (no foreign key: removing it keeps the record). */
  @Column({ name: 'credential_row_id', type: 'uuid' })
  credentialRowId!: string;

  @Column({ type: 'varchar', length: 32 })
  action!: string;

  @Column({ name: 'application_id', type: 'integer', nullable: true })
  applicationId!: number | null;

  @Column({ name: 'key_id', type: 'integer', nullable: true })
  keyId!: number | null;

  @Column({ name: 'passkey_id', type: 'uuid', nullable: true })
  passkeyId!: string | null;

  /** upstream.unbind: the upstream identity (no foreign key: the record outlives the binding). */
  @Column({ name: 'upstream_identity_id', type: 'integer', nullable: true })
  upstreamIdentityId!: number | null;

  /** console_role.*: the user whose console role changes (no foreign key, as above). */
  @Column({ name: 'target_user_id', type: 'bigint', nullable: true })
  targetUserId!: string | null;

  /** console_role.*: the role granted, or the role withdrawn. */
  @Column({ name: 'role', type: 'varchar', length: 16, nullable: true })
  role!: string | null;
  /**
   * client_settings.update: the SHA-256 of the OAuth client settings the change sets
   * (applications/client-settings.ts), so a token confirms that change and no other.
   */
  @Column({ name: 'change_digest', type: 'varchar', length: 64, nullable: true })
  changeDigest!: string | null;

  /** upstream.bind: the provider to bind (no foreign key, as for the other targets). */
  @Column({ name: 'provider_id', type: 'varchar', length: 64, nullable: true })
  providerId!: string | null;

  @Index('idx_passkey_confirmations_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'spent_at', type: 'timestamptz', nullable: true })
  spentAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
