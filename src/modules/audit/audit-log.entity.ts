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

/** The change itself, in flat JSON: fields set, names, scopes; never a secret. */
export type AuditDetails = Record<string, string | number | boolean | null | string[]>;

/**
 * One state change made in the console: who, what, when, from which address.
 * `application_id` has no foreign key on purpose: the record of an application's deletion,
 * and what led to it, outlive the application. Account-level changes (passkeys) have none.
 */
@Entity({ name: 'audit_log' })
@Index('idx_audit_log_application_id_id', ['applicationId', 'id'])
export class AuditLogEntry {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_audit_log' })
  id!: string;

  @Column({ name: 'application_id', type: 'integer', nullable: true })
  applicationId!: number | null;

  /** Null once the acting account is deleted; the entry stays. */
  @Index('idx_audit_log_actor_user_id')
  @Column({ name: 'actor_user_id', type: 'bigint', nullable: true })
  actorUserId!: string | null;

  @ManyToOne(() => User, { onDelete: 'SET NULL' })
  @JoinColumn({ name: 'actor_user_id', foreignKeyConstraintName: 'fk_audit_log_actor_user' })
  actor?: User | null;

  /** What happened, e.g. `key.rotate` (docs/console.md lists them). */
  @Column({ type: 'varchar', length: 64 })
  action!: string;

  /** What it happened to, e.g. `key:12`, `application:3`, `user:7`. */
  @Column({ type: 'varchar', length: 200, default: '' })
  target!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  details!: AuditDetails;

  /** The client address as Express sees it (TRUST_PROXY_HOPS). */
  @Column({ type: 'varchar', length: 64, default: '' })
  ip!: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
