import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The URIs an application may have the browser sent to after an RP-initiated logout (OpenID
 * Connect RP-Initiated Logout 1.0 section 3, `post_logout_redirect_uris`; docs/oidc.md).
 * Empty: the end-session endpoint never redirects for this client.
 */
export class PostLogoutRedirectUris1795402000000 implements MigrationInterface {
  name = 'PostLogoutRedirectUris1795402000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "post_logout_redirect_uris" text array NOT NULL DEFAULT '{}'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "post_logout_redirect_uris"`);
  }
}
