import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { User } from '../users/user.entity';
import type { SessionAuthMethod } from './oauth-session.entity';

/** How much of a User-Agent header a sign-in keeps. */
export const SIGN_IN_USER_AGENT_MAX = 256;
/** How much of a client address a sign-in keeps (as the audit log). */
export const SIGN_IN_ADDRESS_MAX = 64;
/** Sign-ins are kept this long, then purged (docs/accounts.md, "Recent sign-ins"). */
export const SIGN_IN_RETENTION_DAYS = 90;

/**
 * One sign-in of a user (password, passkey or upstream), written with the session it starts
 * (SessionService.create, one statement), so the account page can show where and how the
 * account was used. It outlives the session (90 days, the purge job).
 */
@Entity({ name: 'sign_ins' })
@Index('idx_sign_ins_user_id_created_at', ['userId', 'createdAt'])
export class SignIn {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_sign_ins' })
  id!: string;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_sign_ins_user' })
  user?: User;

  @Column({ type: 'varchar', length: 16 })
  method!: SessionAuthMethod;

  /** The client address as Express sees it (TRUST_PROXY_HOPS). */
  @Column({ type: 'varchar', length: SIGN_IN_ADDRESS_MAX, default: '' })
  ip!: string;

  /** The User-Agent header, cut to SIGN_IN_USER_AGENT_MAX characters; '' when absent. */
  @Column({ name: 'user_agent', type: 'varchar', length: SIGN_IN_USER_AGENT_MAX, default: '' })
  userAgent!: string;

  @Index('idx_sign_ins_created_at')
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
