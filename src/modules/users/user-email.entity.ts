import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { User } from './user.entity';

/** One of a user's email addresses (docs/contract/oauth.md#user-emails). */
@Entity({ name: 'user_emails' })
// Unique regardless of case, among the entries that claim an address (verified or primary): an
// unverified entry an upstream provider gave reserves nothing (migration UnverifiedUpstreamEmails).
@Index('uq_user_emails_lower_email', { synchronize: false })
// One entry per address and user.
@Index('uq_user_emails_user_lower_email', { synchronize: false })
export class UserEmail {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_user_emails' })
  id!: string;

  @Index('idx_user_emails_user_id')
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_user_emails_user' })
  user?: User;

  @Column({ type: 'varchar', length: 254 })
  email!: string;

  @Column({ type: 'boolean', default: false })
  verified!: boolean;

  @Column({ type: 'boolean', default: false })
  primary!: boolean;

  @Column({ type: 'varchar', length: 16, default: 'public' })
  visibility!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
