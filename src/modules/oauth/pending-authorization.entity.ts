import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
} from 'typeorm';
import { Application } from '../applications/application.entity';
import type { AuthorizationRequest } from './authorization-request';

/**
 * A validated authorization request waiting for login or consent. The browser carries only an
 * opaque id (its SHA-256 is the key), so no return URL is ever taken from the query string.
 */
@Entity({ name: 'oauth_pending_authorizations' })
export class PendingAuthorization {
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'pk_oauth_pending_authorizations',
  })
  id!: string;

  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'application_id',
    foreignKeyConstraintName: 'fk_oauth_pending_authorizations_application',
  })
  application?: Application;

  @Column({ type: 'jsonb' })
  request!: AuthorizationRequest;

  @Index('idx_oauth_pending_authorizations_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
