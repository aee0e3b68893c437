import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * OpenID Connect Back-Channel Logout 1.0 (docs/oidc.md, "Back-channel logout"): each sign-in
 * session gets a `sid` of its own (128 random bits, base64url; the sessions already open get one
 * from gen_random_uuid, 122 random bits), each code the sid of the session it was issued in; the
 * clients a session authorized with `openid` (oauth_session_clients, removed with the session);
 * each client's logout URI and its `backchannel_logout_session_required` flag; and the outbox of
 * logouts to send (backchannel_logouts), written in the transaction that ends a session.
 */
export class BackchannelLogout1795690000000 implements MigrationInterface {
  name = 'BackchannelLogout1795690000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "oauth_sessions" ADD "sid" character varying(32)`);
    await queryRunner.query(
      `UPDATE "oauth_sessions" SET "sid" = rtrim(translate(encode(uuid_send(gen_random_uuid()), 'base64'), '+/', '-_'), '=')`,
    );
    await queryRunner.query(`ALTER TABLE "oauth_sessions" ALTER COLUMN "sid" SET NOT NULL`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_oauth_sessions_sid" ON "oauth_sessions" ("sid") `,
    );
    await queryRunner.query(`ALTER TABLE "oauth_codes" ADD "sid" character varying(32)`);
    await queryRunner.query(
      `CREATE TABLE "oauth_session_clients" ("sid" character varying(32) NOT NULL, "application_id" integer NOT NULL, "issuer_path" character varying(16), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_oauth_session_clients" PRIMARY KEY ("sid", "application_id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_oauth_session_clients_application_id" ON "oauth_session_clients" ("application_id") `,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_session_clients" ADD CONSTRAINT "fk_oauth_session_clients_session" FOREIGN KEY ("sid") REFERENCES "oauth_sessions"("sid") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "oauth_session_clients" ADD CONSTRAINT "fk_oauth_session_clients_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(`ALTER TABLE "applications" ADD "backchannel_logout_uri" text`);
    await queryRunner.query(
      `ALTER TABLE "applications" ADD "backchannel_logout_session_required" boolean NOT NULL DEFAULT false`,
    );
    await queryRunner.query(
      `CREATE TABLE "backchannel_logouts" ("id" BIGSERIAL NOT NULL, "application_id" integer NOT NULL, "sid" character varying(32) NOT NULL, "user_id" bigint NOT NULL, "issuer_path" character varying(16), "created_at" TIMESTAMP WITH TIME ZONE NOT NULL, "attempts" integer NOT NULL DEFAULT 0, "next_attempt_at" TIMESTAMP WITH TIME ZONE, "lease_owner" character varying(64), "lease_until" TIMESTAMP WITH TIME ZONE, "status" character varying(16) NOT NULL DEFAULT 'pending', "last_status_code" integer, "last_error" character varying(500), "last_attempt_at" TIMESTAMP WITH TIME ZONE, "delivered_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "chk_backchannel_logouts_status" CHECK ("status" IN ('pending', 'delivered', 'refused', 'abandoned')), CONSTRAINT "pk_backchannel_logouts" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_backchannel_logouts_due" ON "backchannel_logouts" ("next_attempt_at") WHERE "status" = 'pending'`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_backchannel_logouts_application" ON "backchannel_logouts" ("application_id", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_backchannel_logouts_finished" ON "backchannel_logouts" ("created_at") WHERE "status" <> 'pending'`,
    );
    await queryRunner.query(
      `ALTER TABLE "backchannel_logouts" ADD CONSTRAINT "fk_backchannel_logouts_application" FOREIGN KEY ("application_id") REFERENCES "applications"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "backchannel_logouts"`);
    await queryRunner.query(
      `ALTER TABLE "applications" DROP COLUMN "backchannel_logout_session_required"`,
    );
    await queryRunner.query(`ALTER TABLE "applications" DROP COLUMN "backchannel_logout_uri"`);
    await queryRunner.query(`DROP TABLE "oauth_session_clients"`);
    await queryRunner.query(`ALTER TABLE "oauth_codes" DROP COLUMN "sid"`);
    await queryRunner.query(`DROP INDEX "public"."uq_oauth_sessions_sid"`);
    await queryRunner.query(`ALTER TABLE "oauth_sessions" DROP COLUMN "sid"`);
  }
}
