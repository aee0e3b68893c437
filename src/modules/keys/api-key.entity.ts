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

/** Stored status. A key whose `expiresAt` has passed is expired whatever this says. */
export type ApiKeyStoredStatus = 'active' | 'revoked';

/** An application API key. The plaintext is never stored: only its SHA-256 and first 12 characters. */
@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn({ type: 'integer', primaryKeyConstraintName: 'pk_api_keys' })
  id!: number;

  @Index('idx_api_keys_application_id')
  @Column({ name: 'application_id', type: 'integer' })
  applicationId!: number;

  @ManyToOne(() => Application, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'application_id', foreignKeyConstraintName: 'fk_api_keys_application' })
  application?: Application;

  @Column({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ name: 'key_prefix', type: 'varchar', length: 12 })
  keyPrefix!: string;

  /** SHA-256 of the plaintext, hex; the only way a presented key is looked up. */
  @Index('uq_api_keys_key_hash', { unique: true })
  @Column({ name: 'key_hash', type: 'varchar', length: 64 })
  keyHash!: string;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  scopes!: string[];

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: ApiKeyStoredStatus;

  /** End of the rotation grace period; the key is rejected from this instant on. */
  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** The key that replaced this one on rotation. */
  @Column({ name: 'replaced_by_id', type: 'integer', nullable: true })
  replacedById!: number | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;
}
