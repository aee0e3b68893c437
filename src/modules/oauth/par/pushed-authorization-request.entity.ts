import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { Application } from '../../applications/application.entity';

/**
 * A pushed authorization request (RFC 9126) waiting for its one use at /authorize. The
 * request_uri itself is not stored, only its SHA-256: a copy of this table names no usable
 * request_uri. The row goes when the request_uri is used (one DELETE … RETURNING, so a replay, here
 * or on another instance, finds nothing) or, once expired, with the purge job.
 */
@Entity({ name: 'oauth_pushed_authorization_requests' })
@Index('idx_oauth_pushed_requests_application_id_expires_at', ['applicationId', 'expiresAt'])
export class PushedAuthorizationRequest {
  /** SHA-256 (hex) of the request_uri. */
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'pk_oauth_pushed_authorization_requests',
  })
  id!: string;

  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'application_id',
    foreignKeyConstraintName: 'fk_oauth_pushed_authorization_requests_application',
  })
  application?: Application;

  /**
   * The authorization request's parameters as pushed, each one string, without the client's
   * credentials (client_secret is never stored); client_id is the authenticated client's.
   */
  @Column({ type: 'jsonb' })
  parameters!: Record<string, string>;

  @Index('idx_oauth_pushed_authorization_requests_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
