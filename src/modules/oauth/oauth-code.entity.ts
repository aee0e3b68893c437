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
import type { IssuerPath } from '../signing-keys/issuers';
import { User } from '../users/user.entity';
import type { SessionAuthMethod } from '../sessions/oauth-session.entity';

/**
 * An authorization code (RFC 6749 section 4.1.2), stored as a SHA-256 hash and bound to the
 * client, the redirect_uri and the PKCE challenge. consumedAt is set by one atomic UPDATE, so a
 * code is redeemed at most once; the row is kept so a replay can revoke what the code produced.
 */
@Entity({ name: 'oauth_codes' })
export class OAuthCode {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_oauth_codes' })
  id!: string;

  @Index('uq_oauth_codes_code_hash', { unique: true })
  @Column({ name: 'code_hash', type: 'varchar', length: 64 })
  codeHash!: string;

  @Index('idx_oauth_codes_application_id')
  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'fk_oauth_codes_application' })
  application?: Application;

  @Index('idx_oauth_codes_user_id')
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_oauth_codes_user' })
  user?: User;

  @Column({ name: 'redirect_uri', type: 'text' })
  redirectUri!: string;

  /** BASE64URL(SHA256(code_verifier)), or null when the (secret) client sent no challenge. */
  @Column({ name: 'code_challenge', type: 'varchar', length: 43, nullable: true })
  codeChallenge!: string | null;

  @Column({ type: 'text' })
  scope!: string;

  /** The authorization request's nonce (OIDC Core 3.1.2.1), for the id_token; null if none. */
  @Column({ type: 'text', nullable: true })
  nonce!: string | null;

  /** Sign-in time of the granting session (OIDC Core 2 `auth_time`); null before migration. */
  @Column({ name: 'auth_time', type: 'timestamptz', nullable: true })
  authTime!: Date | null;

  /** How the granting session signed in (the id_token's amr); null before migration. */
  @Column({ name: 'auth_method', type: 'varchar', length: 16, nullable: true })
  authMethod!: SessionAuthMethod | null;

  /** The acr stated in the id_token when the request asked for one (OIDC Core 2); else null. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  acr!: string | null;

  /**
   * The alias issuer path (`/api/oidc`) when the authorization was sent to its endpoint, else null
   * (PUBLIC_BASE_URL): the `iss` of the id_tokens of this code and its refreshes
   * (signing-keys/issuers.ts).
   */
  @Column({ name: 'issuer_path', type: 'varchar', length: 16, nullable: true })
  issuerPath!: IssuerPath | null;

  /** The `sid` of the session the code was issued in, repeated by its family's id_tokens. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  sid!: string | null;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'consumed_at', type: 'timestamptz', nullable: true })
  consumedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
