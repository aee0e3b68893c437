import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Application } from '../applications/application.entity';

/**
 * An issued access token and its refresh token, stored only as SHA-256 hashes.
 * Revoking sets revokedAt; the row is kept for audit and reuse detection.
 */
@Entity({ name: 'oauth_tokens' })
@Index('idx_oauth_tokens_application_user', ['applicationId', 'userId'])
@Index('idx_oauth_tokens_family_generation', ['familyId', 'generation'])
export class OAuthToken {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_oauth_tokens' })
  id!: string;

  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'fk_oauth_tokens_application' })
  application?: Application;

  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  // Named, not imported: the users module imports this one (it revokes a relation's tokens),
  // so this file may not import users/ (module-graph.spec.ts). TypeORM resolves 'User' by class.
  @ManyToOne('User', { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_oauth_tokens_user' })
  user?: object;

  @Index('uq_oauth_tokens_access_token_hash', { unique: true })
  @Column({ name: 'access_token_hash', type: 'varchar', length: 64 })
  accessTokenHash!: string;

  @Index('uq_oauth_tokens_refresh_token_hash', { unique: true })
  @Column({ name: 'refresh_token_hash', type: 'varchar', length: 64, nullable: true })
  refreshTokenHash!: string | null;

  /** Space-separated scope names. */
  @Column({ type: 'text', default: '' })
  scope!: string;

  @Column({ name: 'access_expires_at', type: 'timestamptz' })
  accessExpiresAt!: Date;

  @Column({ name: 'refresh_expires_at', type: 'timestamptz', nullable: true })
  refreshExpiresAt!: Date | null;

  /**
   * Every token descending from one authorization code shares a family; replaying a rotated-out
   * refresh token revokes the whole family (RFC 9700 section 4.14.2).
   */
  @Column({ name: 'family_id', type: 'uuid', nullable: true })
  familyId!: string | null;

  /** The code this family started from, so a replayed code can revoke its tokens (RFC 6749 section 4.1.2). */
  @Index('idx_oauth_tokens_code_id')
  @Column({ name: 'code_id', type: 'bigint', nullable: true })
  codeId!: string | null;

  /** The token whose refresh produced this one. */
  @Column({ name: 'parent_id', type: 'bigint', nullable: true })
  parentId!: string | null;

  /**
   * Depth in the family: 0 for the tokens of a code, the parent's + 1 for a refresh's. Two tokens
   * of one generation are branches (a refresh token reused within the reuse interval); a token
   * of a family that holds a later generation created before the interval is superseded
   * (tokens/token-sql.ts, supersededTokenSql).
   */
  @Column({ type: 'integer', default: 0 })
  generation!: number;

  /** Set when the refresh token was exchanged; presenting it again is a replay. */
  /**
   * The JWK thumbprint the access token is bound to (RFC 9449 section 6: its `cnf.jkt`), when the
   * token request carried a DPoP proof; null for a bearer token.
   */
  @Column({ name: 'dpop_jkt', type: 'varchar', length: 43, nullable: true })
  dpopJkt!: string | null;

  /**
   * The JWK thumbprint the refresh token is bound to: a public client's refresh token is bound to
   * the key of its DPoP proof (RFC 9449 section 5); a confidential client's is bound by its
   * client authentication instead, and null here.
   */
  @Column({ name: 'refresh_dpop_jkt', type: 'varchar', length: 43, nullable: true })
  refreshDpopJkt!: string | null;

  @Column({ name: 'rotated_at', type: 'timestamptz', nullable: true })
  rotatedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
