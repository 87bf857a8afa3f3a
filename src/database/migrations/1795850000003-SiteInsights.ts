import { MigrationInterface, QueryRunner } from "typeorm";

/** Site insights: readers' events, their daily counts, the rollup's watermark and the daily salts of visitor hashes. */
export class SiteInsights1795850000003 implements MigrationInterface {
    name = 'SiteInsights1795850000003'

    public async up(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`CREATE TABLE "site_insight_events" ("id" BIGSERIAL NOT NULL, "site_id" character varying(32) NOT NULL, "received_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL DEFAULT now(), "occurred_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "day" date NOT NULL, "type" character varying(32) NOT NULL, "visitor" character varying(32) NOT NULL, "session" character varying(32) NOT NULL, "display_context" character varying(8) NOT NULL, "site_section_id" character varying(64), "site_space_id" character varying(64), "space_id" character varying(64), "page_id" character varying(64), "url_path" character varying(512), "referrer_domain" character varying(255), "search_query" character varying(256), "search_results" integer, "rating" character varying(4), "comment" text, "link_target" character varying(1024), "claims" jsonb, CONSTRAINT "PK_4ee83da97acd424507bbb82633d" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE INDEX "site_insight_events_received_idx" ON "site_insight_events" ("received_at", "id") `);
        await queryRunner.query(`CREATE INDEX "site_insight_events_occurred_idx" ON "site_insight_events" ("occurred_at") `);
        await queryRunner.query(`CREATE INDEX "site_insight_events_site_day_idx" ON "site_insight_events" ("site_id", "day") `);
        await queryRunner.query(`CREATE TABLE "site_insight_counts" ("site_id" character varying(32) NOT NULL, "dimension" character varying(24) NOT NULL, "event_type" character varying(32) NOT NULL, "day" date NOT NULL, "value" character varying(1024) COLLATE "C" NOT NULL, "detail" character varying(8) NOT NULL, "events" integer NOT NULL, "sessions" integer NOT NULL, "visitors" integer NOT NULL, CONSTRAINT "PK_b6cbee93a0e55b7199d1e27495d" PRIMARY KEY ("site_id", "dimension", "event_type", "day", "value", "detail"))`);
        await queryRunner.query(`CREATE TABLE "site_insight_rollup_state" ("id" smallint NOT NULL, "last_event_id" bigint NOT NULL, CONSTRAINT "PK_efc240d10a48b860c4661af97b2" PRIMARY KEY ("id"))`);
        await queryRunner.query(`CREATE TABLE "site_insight_salts" ("day" date NOT NULL, "salt" character varying(64) NOT NULL, CONSTRAINT "PK_d86ba200e37a530884152f03e9a" PRIMARY KEY ("day"))`);
        await queryRunner.query(`ALTER TABLE "site_insight_events" ADD CONSTRAINT "FK_471123b3352affdc4f55b681a56" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
        await queryRunner.query(`ALTER TABLE "site_insight_counts" ADD CONSTRAINT "FK_4d5e7acadde95368bc0e6875483" FOREIGN KEY ("site_id") REFERENCES "sites"("id") ON DELETE CASCADE ON UPDATE NO ACTION`);
    }

    public async down(queryRunner: QueryRunner): Promise<void> {
        await queryRunner.query(`ALTER TABLE "site_insight_counts" DROP CONSTRAINT "FK_4d5e7acadde95368bc0e6875483"`);
        await queryRunner.query(`ALTER TABLE "site_insight_events" DROP CONSTRAINT "FK_471123b3352affdc4f55b681a56"`);
        await queryRunner.query(`DROP TABLE "site_insight_salts"`);
        await queryRunner.query(`DROP TABLE "site_insight_rollup_state"`);
        await queryRunner.query(`DROP TABLE "site_insight_counts"`);
        await queryRunner.query(`DROP INDEX "public"."site_insight_events_site_day_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_insight_events_occurred_idx"`);
        await queryRunner.query(`DROP INDEX "public"."site_insight_events_received_idx"`);
        await queryRunner.query(`DROP TABLE "site_insight_events"`);
    }

}
