import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `oauth_tokens.generation`, a token's depth in its family, so that a branch forked by a refresh
 * token reused within the reuse interval can be told superseded once the other branch rotates
 * (RFC 9700 section 4.14.2; docs/adr/0003-oauth-codes-tokens-and-sessions.md). The family index
 * gains the generation: the supersession check reads (family_id, generation > g), the family
 * revocation reads family_id alone.
 *
 * Existing tokens start at generation 0. That is safe: a chain whose tokens are all 0 holds no
 * later generation, so its live token is not superseded; its next successor is 1. A family
 * forked before this migration has two branch tokens of generation 0: once one rotates, the
 * other is superseded, which is the rule.
 */
export class TokenGenerations1795440000000 implements MigrationInterface {
  name = 'TokenGenerations1795440000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "oauth_tokens" ADD "generation" integer NOT NULL DEFAULT 0`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_tokens_family_id"`);
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_tokens_family_generation" ON "oauth_tokens" ("family_id", "generation") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."idx_oauth_tokens_family_generation"`);
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_tokens_family_id" ON "oauth_tokens" ("family_id") `,
    );
    await queryRunner.query(`ALTER TABLE "oauth_tokens" DROP COLUMN "generation"`);
  }
}
