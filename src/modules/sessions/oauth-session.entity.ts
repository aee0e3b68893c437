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

export const SESSION_AUTH_METHODS = ['password', 'passkey', 'upstream'] as const;
export type SessionAuthMethod = (typeof SESSION_AUTH_METHODS)[number];

/**
 * A browser login session, shared by the OAuth pages and the console; the id is the SHA-256 of
 * the cookie value.
 */
@Entity({ name: 'oauth_sessions' })
export class OAuthSession {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_oauth_sessions' })
  id!: string;

  @Index('idx_oauth_sessions_user_id')
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_oauth_sessions_user' })
  user?: User;

  @Index('idx_oauth_sessions_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  /** How the user signed in; the console asks for a recent password sign-in before a first passkey. */
  @Column({ name: 'auth_method', type: 'varchar', length: 16, default: 'password' })
  authMethod!: SessionAuthMethod;

  /**
   * The session's id in OpenID Connect (the id_token's and the logout token's `sid`): 128 random
   * bits of its own, base64url, never derived from the cookie, so it names the session without
   * being a credential for it (docs/oidc.md, "Back-channel logout").
   */
  @Index('uq_oauth_sessions_sid', { unique: true })
  @Column({ type: 'varchar', length: 32 })
  sid!: string;

  /** The sign-in time. */
  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
