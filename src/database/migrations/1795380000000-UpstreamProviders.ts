import { MigrationInterface, QueryRunner } from 'typeorm';

/** Configured upstream identity providers (docs/upstreams.md); the client secret is encrypted. */
export class UpstreamProviders1795380000000 implements MigrationInterface {
  name = 'UpstreamProviders1795380000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "upstream_providers" ("id" character varying(64) NOT NULL, "display_name" character varying(100) NOT NULL, "kind" character varying(16) NOT NULL, "enabled" boolean NOT NULL DEFAULT true, "client_id" character varying(255) NOT NULL, "client_secret_sealed" text NOT NULL, "settings" jsonb NOT NULL DEFAULT '{}', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "pk_upstream_providers" PRIMARY KEY ("id"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "upstream_providers"`);
  }
}
