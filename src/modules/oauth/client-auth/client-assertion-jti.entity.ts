import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A client assertion already used (RFC 7523 section 3, item 7): inserting its id is the
 * single-use check, shared by every instance through the database. A row is needed only until
 * the assertion expires; the purge job deletes it then.
 */
@Entity({ name: 'oauth_client_assertion_jtis' })
export class ClientAssertionJti {
  /** SHA-256 (hex) of the client_id and the assertion's `jti`: one namespace per client. */
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'pk_oauth_client_assertion_jtis',
  })
  id!: string;

  /** The assertion's `exp`: until then a second use is a replay. */
  @Index('idx_oauth_client_assertion_jtis_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
