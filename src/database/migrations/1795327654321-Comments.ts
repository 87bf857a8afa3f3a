import { MigrationInterface, QueryRunner } from 'typeorm';

/** Comments, replies and reactions (src/modules/comments/infrastructure/*.orm.ts). */
export class Comments1795327654321 implements MigrationInterface {
  name = 'Comments1795327654321';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "comments" ("id" character varying(32) NOT NULL, "space_id" character varying(32) NOT NULL, "change_request_id" character varying(32), "revision_id" character varying(32) NOT NULL, "page_id" character varying(64), "node_id" character varying(128), "table_record" character varying(128), "table_definition" character varying(128), "posted_by" character varying(32) NOT NULL, "posted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "edited_at" TIMESTAMP(3) WITH TIME ZONE, "body" text NOT NULL, "status" character varying(16) NOT NULL, "resolved_at" TIMESTAMP(3) WITH TIME ZONE, "resolved_by" character varying(32), CONSTRAINT "PK_8bf68bc960f2b69e818bdb90dcb" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "comments_change_request_idx" ON "comments" ("change_request_id") `);
    await queryRunner.query(`CREATE INDEX "comments_scope_author_idx" ON "comments" ("space_id", "change_request_id", "posted_by", "posted_at", "id") `);
    await queryRunner.query(`CREATE INDEX "comments_scope_page_idx" ON "comments" ("space_id", "change_request_id", "page_id", "posted_at", "id") `);
    await queryRunner.query(`CREATE INDEX "comments_scope_status_idx" ON "comments" ("space_id", "change_request_id", "status", "posted_at", "id") `);
    await queryRunner.query(`CREATE INDEX "comments_scope_posted_idx" ON "comments" ("space_id", "change_request_id", "posted_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "comment_replies" ("id" character varying(32) NOT NULL, "comment_id" character varying(32) NOT NULL, "posted_by" character varying(32) NOT NULL, "posted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, "edited_at" TIMESTAMP(3) WITH TIME ZONE, "body" text NOT NULL, CONSTRAINT "PK_54d32d12fc82246d821c1752f30" PRIMARY KEY ("id"))`,
    );
    await queryRunner.query(`CREATE INDEX "comment_replies_comment_posted_idx" ON "comment_replies" ("comment_id", "posted_at", "id") `);
    await queryRunner.query(
      `CREATE TABLE "comment_reactions" ("subject_id" character varying(32) NOT NULL, "user_id" character varying(32) NOT NULL, "emoji" character varying(64) NOT NULL, "comment_id" character varying(32) NOT NULL, "reply_id" character varying(32), "reacted_at" TIMESTAMP(3) WITH TIME ZONE NOT NULL, CONSTRAINT "PK_ed24634dd81b7434eaf2e1d4396" PRIMARY KEY ("subject_id", "user_id", "emoji"))`,
    );
    await queryRunner.query(`CREATE INDEX "comment_reactions_reply_idx" ON "comment_reactions" ("reply_id") `);
    await queryRunner.query(`CREATE INDEX "comment_reactions_comment_idx" ON "comment_reactions" ("comment_id") `);
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "FK_acc37b26288bd320f5c36601533" FOREIGN KEY ("space_id") REFERENCES "spaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comments" ADD CONSTRAINT "FK_aeae060a60cb3110fb15ace2a68" FOREIGN KEY ("change_request_id") REFERENCES "change_requests"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comment_replies" ADD CONSTRAINT "FK_a79ad427702b6688514624a54f1" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comment_reactions" ADD CONSTRAINT "FK_dc714054fc62b698018fcb0ae37" FOREIGN KEY ("comment_id") REFERENCES "comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE "comment_reactions" ADD CONSTRAINT "FK_5b7dfdf5772fc0afe6acfa94d3a" FOREIGN KEY ("reply_id") REFERENCES "comment_replies"("id") ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "comment_reactions" DROP CONSTRAINT "FK_5b7dfdf5772fc0afe6acfa94d3a"`);
    await queryRunner.query(`ALTER TABLE "comment_reactions" DROP CONSTRAINT "FK_dc714054fc62b698018fcb0ae37"`);
    await queryRunner.query(`ALTER TABLE "comment_replies" DROP CONSTRAINT "FK_a79ad427702b6688514624a54f1"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "FK_aeae060a60cb3110fb15ace2a68"`);
    await queryRunner.query(`ALTER TABLE "comments" DROP CONSTRAINT "FK_acc37b26288bd320f5c36601533"`);
    await queryRunner.query(`DROP INDEX "public"."comment_reactions_comment_idx"`);
    await queryRunner.query(`DROP INDEX "public"."comment_reactions_reply_idx"`);
    await queryRunner.query(`DROP TABLE "comment_reactions"`);
    await queryRunner.query(`DROP INDEX "public"."comment_replies_comment_posted_idx"`);
    await queryRunner.query(`DROP TABLE "comment_replies"`);
    await queryRunner.query(`DROP INDEX "public"."comments_scope_posted_idx"`);
    await queryRunner.query(`DROP INDEX "public"."comments_scope_status_idx"`);
    await queryRunner.query(`DROP INDEX "public"."comments_scope_page_idx"`);
    await queryRunner.query(`DROP INDEX "public"."comments_scope_author_idx"`);
    await queryRunner.query(`DROP INDEX "public"."comments_change_request_idx"`);
    await queryRunner.query(`DROP TABLE "comments"`);
  }
}
