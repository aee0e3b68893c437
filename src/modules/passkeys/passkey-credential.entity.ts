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

/** WebAuthn's credentialDeviceType: a passkey bound to one device, or one that syncs. */
export type PasskeyDeviceType = 'singleDevice' | 'multiDevice';

/** bigint column read as a number: a signature counter is a 32-bit unsigned integer. */
const COUNTER = {
  to: (value: number): number => value,
  from: (value: string | number): number => Number(value),
};

/**
 * A registered passkey: what verifying its assertions needs (W3C WebAuthn Level 3, section
 * 7.2: credential id, public key, signature counter), plus what the account page shows.
 */
@Entity({ name: 'passkey_credentials' })
export class PasskeyCredential {
  /** Our id (the one in URLs); the authenticator's credential id is `credentialId`. */
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'pk_passkey_credentials' })
  id!: string;

  /** The authenticator's credential id, base64url; assertions name their credential by it. */
  @Index('uq_passkey_credentials_credential_id', { unique: true })
  @Column({ name: 'credential_id', type: 'varchar', length: 1400 })
  credentialId!: string;

  @Index('idx_passkey_credentials_user_id')
  @Column({ name: 'user_id', type: 'bigint' })
  userId!: string;

  @ManyToOne(() => User, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'fk_passkey_credentials_user' })
  user?: User;

  /**
   * The WebAuthn user handle (user.id of the registration options), base64url: random, one per
   * user (every passkey of a user carries the same), never the database id.
   */
  @Column({ name: 'user_handle', type: 'varchar', length: 128 })
  userHandle!: string;

  @Column({ type: 'varchar', length: 64 })
  name!: string;

  /** COSE_Key of the credential, as the authenticator sent it. */
  @Column({ name: 'public_key', type: 'bytea' })
  publicKey!: Buffer;

  /** Last signature counter seen; 0 for authenticators that do not count (docs/console.md). */
  @Column({ type: 'bigint', default: 0, transformer: COUNTER })
  counter!: number;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  transports!: string[];

  @Column({ name: 'device_type', type: 'varchar', length: 16 })
  deviceType!: PasskeyDeviceType;

  @Column({ name: 'backed_up', type: 'boolean', default: false })
  backedUp!: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;
}
