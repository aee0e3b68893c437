import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { Application } from '../../applications/application.entity';
import type { SessionAuthMethod } from '../../sessions/oauth-session.entity';
import { User } from '../../users/user.entity';
import type { IssuerPath } from '../../signing-keys/issuers';

/** Where a device code is: waiting for the person, answered, or spent on tokens. */
export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'redeemed';

/**
 * A device authorization (RFC 8628 section 3.2): the device code the client polls with and the
 * user code the person types, each stored only as a SHA-256 (the user code of its normalised
 * form, docs/oauth.md, "Device authorization grant"). The person's approval writes the user and
 * their sign-in's time and method here; redeeming spends it (`redeemed`). The last poll's time
 * and the current interval live on the row, so slow_down holds across instances. Expired rows
 * go with the purge job.
 */
@Entity({ name: 'oauth_device_codes' })
@Check('chk_oauth_device_codes_status', `"status" IN ('pending', 'approved', 'denied', 'redeemed')`)
export class DeviceCode {
  @PrimaryGeneratedColumn({ type: 'bigint', primaryKeyConstraintName: 'pk_oauth_device_codes' })
  id!: string;

  @Index('uq_oauth_device_codes_device_code_hash', { unique: true })
  @Column({ name: 'device_code_hash', type: 'varchar', length: 64 })
  deviceCodeHash!: string;

  /** Unique: no two codes, live or not yet purged, share a user code. */
  @Index('uq_oauth_device_codes_user_code_hash', { unique: true })
  @Column({ name: 'user_code_hash', type: 'varchar', length: 64 })
  userCodeHash!: string;

  @Index('idx_oauth_device_codes_application_id')
  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({
    name: 'application_id',
    foreignKeyConstraintName: 'fk_oauth_device_codes_application',
  })
  application?: Application;

  /** Canonical scope text (protocol/scopes.ts). */
  @Column({ type: 'text' })
  scope!: string;

  @Column({ type: 'varchar', length: 16, default: 'pending' })
  status!: DeviceCodeStatus;

  /** The polling interval in seconds: 5, plus 5 for every slow_down (RFC 8628 section 3.5). */
  @Column({ name: 'interval_seconds', type: 'integer' })
  intervalSeconds!: number;

  @Column({ name: 'last_polled_at', type: 'timestamptz', nullable: true })
  lastPolledAt!: Date | null;

  /** The person who approved or denied. */
  @Index('idx_oauth_device_codes_user_id')
  @Column({ name: 'user_id', type: 'bigint', nullable: true })
  userId!: string | null;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_oauth_device_codes_user' })
  user?: User;

  /** The approving sign-in's time and method: the id_token's auth_time and amr. */
  @Column({ name: 'auth_time', type: 'timestamptz', nullable: true })
  authTime!: Date | null;

  @Column({ name: 'auth_method', type: 'varchar', length: 16, nullable: true })
  authMethod!: SessionAuthMethod | null;

  /** The alias issuer when the device authorization came to its endpoint (signing-keys/issuers.ts). */
  @Column({ name: 'issuer_path', type: 'varchar', length: 16, nullable: true })
  issuerPath!: IssuerPath | null;

  @Index('idx_oauth_device_codes_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'decided_at', type: 'timestamptz', nullable: true })
  decidedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
