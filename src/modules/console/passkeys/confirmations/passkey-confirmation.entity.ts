import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { User } from '../../../users/user.entity';
import { ConfirmationTargetColumns } from '../../../passkeys/confirmation-target-columns';

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

  /** The target of the action (docs/console.md, "The confirmation exchange"). */
  @Column(() => ConfirmationTargetColumns, { prefix: false })
  target!: ConfirmationTargetColumns;

  @Index('idx_passkey_confirmations_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'spent_at', type: 'timestamptz', nullable: true })
  spentAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
