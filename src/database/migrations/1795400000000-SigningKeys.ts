import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenID Connect signing keys (docs/oidc.md): the private key AES-256-GCM encrypted, at most
 * one active and one next key (partial unique indexes), retired keys until `published_until`.
 */
export class SigningKeys1795400000000 implements MigrationInterface {
  name = 'SigningKeys1795400000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "signing_keys" ("id" SERIAL NOT NULL, "kid" text NOT NULL, "alg" character varying(16) NOT NULL, "public_jwk" jsonb NOT NULL, "private_key_sealed" text NOT NULL, "state" character varying(8) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "activated_at" TIMESTAMP WITH TIME ZONE, "retired_at" TIMESTAMP WITH TIME ZONE, "published_until" TIMESTAMP WITH TIME ZONE, CONSTRAINT "chk_signing_keys_state" CHECK ("state" IN ('next', 'active', 'retired')), CONSTRAINT "pk_signing_keys" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "uq_signing_keys_kid" ON "signing_keys" ("kid") `);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_next" ON "signing_keys" ("state") WHERE "state" = 'next'`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_signing_keys_active" ON "signing_keys" ("state") WHERE "state" = 'active'`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_active"`);
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_next"`);
    await queryRunner.query(`DROP INDEX "public"."uq_signing_keys_kid"`);
    await queryRunner.query(`DROP TABLE "signing_keys"`);
  }
}
