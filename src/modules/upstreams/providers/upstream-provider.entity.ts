import { Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import type { UpstreamKind, UpstreamProviderSettings } from './upstream-provider';

/**
 * One configured upstream identity provider (docs/upstreams.md). The id is what clients put in
 * `upstream_providers` and what appears in the callback URL, so it is chosen by the operator.
 */
@Entity({ name: 'upstream_providers' })
export class UpstreamProviderRecord {
  @PrimaryColumn({ type: 'varchar', length: 64, primaryKeyConstraintName: 'pk_upstream_providers' })
  id!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 100 })
  displayName!: string;

  @Column({ type: 'varchar', length: 16 })
  kind!: UpstreamKind;

  @Column({ type: 'boolean', default: true })
  enabled!: boolean;

  @Column({ name: 'client_id', type: 'varchar', length: 255 })
  clientId!: string;

  /** AES-256-GCM ciphertext of the client secret (secret-box.ts); never the plaintext. */
  @Column({ name: 'client_secret_sealed', type: 'text' })
  clientSecretSealed!: string;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings!: UpstreamProviderSettings;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;
}
