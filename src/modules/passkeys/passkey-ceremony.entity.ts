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
import { ConfirmationTargetColumns } from './confirmation-target-columns';

/** What a challenge was issued for. */
export type CeremonyPurpose = 'registration' | 'sign_in' | 'confirmation';

/**
 * One WebAuthn challenge, single use: a registration, a passkey sign-in, or a confirmation of
 * one console action on one target. It is spent (`used_at`) by the first response presented,
 * whether that response verifies or not.
 */
@Entity({ name: 'passkey_ceremonies' })
export class PasskeyCeremony {
  /** The ceremonyId / confirmationId the client sends back. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_passkey_ceremonies' })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  purpose!: CeremonyPurpose;

  /** The signed-in user; null for a passkey sign-in, where the assertion names the user. */
  @Column({ name: 'user_id', type: 'bigint', nullable: true })
  userId!: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_passkey_ceremonies_user' })
  user?: User;

  /** base64url, as in the options sent to the browser. */
  @Column({ type: 'varchar', length: 128 })
  challenge!: string;

  /** Registration: the user handle offered to the authenticator, kept for the credential row. */
  @Column({ name: 'user_handle', type: 'varchar', length: 128, nullable: true })
  userHandle!: string | null;

  /** Confirmation: the action and its target, copied to the token this ceremony yields. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  action!: string | null;

  /** The target of the action (docs/console.md, "The confirmation exchange"). */
  @Column(() => ConfirmationTargetColumns, { prefix: false })
  target!: ConfirmationTargetColumns;

  @Index('idx_passkey_ceremonies_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
