import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A DPoP proof already used (RFC 9449 section 11.1): inserting its id is the single-use check,
 * shared by every instance through the database. A row is needed only while the proof's `iat`
 * is acceptable; the purge job deletes it then.
 */
@Entity({ name: 'oauth_dpop_proof_jtis' })
export class DpopProofJti {
  /** SHA-256 (hex) of the proof key's thumbprint and the proof's `jti`: one namespace per key. */
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'pk_oauth_dpop_proof_jtis',
  })
  id!: string;

  /** Until when a second use is a replay: the end of the proof's `iat` window. */
  @Index('idx_oauth_dpop_proof_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
