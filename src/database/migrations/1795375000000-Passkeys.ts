import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner console passkeys (docs/console.md "Passkeys and confirmations"): registered
 * credentials, the single-use WebAuthn challenges (registration, sign-in, confirmation), and the
 * confirmation tokens they yield, stored as SHA-256 hashes. Expired ceremonies and tokens are
 * removed by the purge job.
 */
export class Passkeys1795375000000 implements MigrationInterface {
  name = 'Passkeys1795375000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "passkey_ceremonies" ("id" uuid NOT NULL, "purpose" character varying(16) NOT NULL, "user_id" bigint, "challenge" character varying(128) NOT NULL, "user_handle" character varying(128), "action" character varying(32), "application_id" integer, "key_id" integer, "passkey_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_passkey_ceremonies" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_passkey_ceremonies_expires_at" ON "passkey_ceremonies"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "passkey_confirmations" ("id" uuid NOT NULL, "token_hash" character varying(64) NOT NULL, "user_id" bigint NOT NULL, "credential_row_id" uuid NOT NULL, "action" character varying(32) NOT NULL, "application_id" integer, "key_id" integer, "passkey_id" uuid, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "spent_at" TIMESTAMP WITH TIME ZONE, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_passkey_confirmations" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_passkey_confirmations_token_hash" ON "passkey_confirmations"  ("token_hash") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_passkey_confirmations_expires_at" ON "passkey_confirmations"  ("expires_at") `,
    );
    await queryRunner.query(
      `CREATE TABLE "passkey_credentials" ("id" uuid NOT NULL, "credential_id" character varying(1400) NOT NULL, "user_id" bigint NOT NULL, "user_handle" character varying(128) NOT NULL, "name" character varying(64) NOT NULL, "public_key" bytea NOT NULL, "counter" bigint NOT NULL DEFAULT '0', "transports" text array NOT NULL DEFAULT '{}', "device_type" character varying(16) NOT NULL, "backed_up" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "last_used_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "pk_passkey_credentials" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_passkey_credentials_credential_id" ON "passkey_credentials"  ("credential_id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_passkey_credentials_user_id" ON "passkey_credentials"  ("user_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "passkey_ceremonies" ADD CONSTRAINT "fk_passkey_ceremonies_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "passkey_confirmations" ADD CONSTRAINT "fk_passkey_confirmations_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "passkey_credentials" ADD CONSTRAINT "fk_passkey_credentials_user" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "passkey_credentials" DROP CONSTRAINT "fk_passkey_credentials_user"`,
    );
    await queryRunner.query(
      `ALTER TABLE "passkey_confirmations" DROP CONSTRAINT "fk_passkey_confirmations_user"`,
    );
    await queryRunner.query(
      `ALTER TABLE "passkey_ceremonies" DROP CONSTRAINT "fk_passkey_ceremonies_user"`,
    );
    await queryRunner.query(`DROP INDEX "public"."idx_passkey_credentials_user_id"`);
    await queryRunner.query(`DROP INDEX "public"."uq_passkey_credentials_credential_id"`);
    await queryRunner.query(`DROP TABLE "passkey_credentials"`);
    await queryRunner.query(`DROP INDEX "public"."idx_passkey_confirmations_expires_at"`);
    await queryRunner.query(`DROP INDEX "public"."uq_passkey_confirmations_token_hash"`);
    await queryRunner.query(`DROP TABLE "passkey_confirmations"`);
    await queryRunner.query(`DROP INDEX "public"."idx_passkey_ceremonies_expires_at"`);
    await queryRunner.query(`DROP TABLE "passkey_ceremonies"`);
  }
}
