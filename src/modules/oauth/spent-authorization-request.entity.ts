import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * An authorization request that has been answered by a signed-in user (the request itself
 * travels sealed with the browser, see authorize/sealed-request.ts). Inserting the id is the single-use
 * check: a second answer to the same request finds the row and is refused. The row is needed
 * only until the request would have expired anyway; the purge job deletes it then.
 */
@Entity({ name: 'oauth_spent_authorization_requests' })
export class SpentAuthorizationRequest {
  /** SHA-256 (hex) of the request's random id. */
  @PrimaryColumn({
    type: 'varchar',
    length: 64,
    primaryKeyConstraintName: 'pk_oauth_spent_authorization_requests',
  })
  id!: string;

  @Index('idx_oauth_spent_authorization_requests_expires_at')
  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;
}
