import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An address an upstream provider does not call verified reserves nothing (docs/upstreams.md,
 * "Accounts"; docs/security.md, "Upstream providers"): such an address is kept as an unverified,
 * non-primary entry of user_emails, so only verified or primary entries are unique per address,
 * and one user holds an address at most once.
 *
 * Accounts created before by an upstream sign-in with the provider's unverified address as their
 * email lose it as their email and primary entry (the entry stays, unverified): the account
 * was created in the same transaction as an identity whose snapshot has that address, it has no
 * password and its email is unverified. `down` does not give the address back.
 */
export class UnverifiedUpstreamEmails1795450000000 implements MigrationInterface {
  name = 'UnverifiedUpstreamEmails1795450000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      WITH claimed AS (
        SELECT u.id, lower(u.email) AS email FROM users u
         WHERE u.email <> '' AND NOT u.email_verified AND u.password_hash IS NULL
           AND EXISTS (
             SELECT 1 FROM upstream_identities i
              WHERE i.user_id = u.id AND i.created_at = u.created_at
                AND lower(i.profile ->> 'email') = lower(u.email))
      ), entries AS (
        UPDATE user_emails e SET "primary" = false FROM claimed c
         WHERE e.user_id = c.id AND lower(e.email) = c.email AND NOT e.verified
        RETURNING e.id
      )
      UPDATE users u SET email = '' FROM claimed c WHERE u.id = c.id`);
    await queryRunner.query(`DROP INDEX "public"."uq_user_emails_lower_email"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_emails_lower_email" ON "user_emails" (lower("email")) WHERE "verified" OR "primary"`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_emails_user_lower_email" ON "user_emails" ("user_id", lower("email"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    // Fails while two users hold one address as unverified entries, as it should.
    await queryRunner.query(`DROP INDEX "public"."uq_user_emails_user_lower_email"`);
    await queryRunner.query(`DROP INDEX "public"."uq_user_emails_lower_email"`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_user_emails_lower_email" ON "user_emails" (lower("email"))`,
    );
  }
}
