import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { User } from '../../users/user.entity';

/** What a code proves when it is entered (docs/accounts.md, "One-time codes"). */
export const CODE_PURPOSES = ['sign_up', 'email_verification', 'password_reset'] as const;
export type CodePurpose = (typeof CODE_PURPOSES)[number];

/**
 * A one-time code sent by email. The code itself is never stored: `code_hash` is an HMAC of the
 * row id and the code under a key derived from SESSION_SECRET, so a copy of the table does not
 * give the codes away (six digits would fall to a plain hash at once). Single use: `consumed_at`
 * is set by the statement that accepts it; five wrong tries spend it too.
 */
@Entity({ name: 'one_time_codes' })
export class OneTimeCode {
  /** The public handle of the code: in the form and in the emailed link. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_one_time_codes' })
  id!: string;

  @Column({ type: 'varchar', length: 32 })
  purpose!: CodePurpose;

  /** The account it is for; null for a sign-up (the account is made when the code is entered). */
  @Index('idx_one_time_codes_user_id')
  @Column({ name: 'user_id', type: 'bigint', nullable: true })
  userId!: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_one_time_codes_user' })
  user?: User;

  /** The address the code was sent to, lower-cased: entering the code proves it is theirs. */
  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash!: string;

  /** What the purpose needs once the code is entered (a sign-up's username and password hash). */
  @Column({ type: 'jsonb', nullable: true })
  payload!: Record<string, unknown> | null;

  @Column({ type: 'int', default: 0 })
  attempts!: number;

  @Index('idx_one_time_codes_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
