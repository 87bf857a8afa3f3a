import { MigrationInterface, QueryRunner } from 'typeorm';

/** The operator console's sign-ins: the cookie holds a random session id, this table its hash. */
export class ConsoleSessions1795850000002 implements MigrationInterface {
  name = 'ConsoleSessions1795850000002';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "console_sessions" (
      "id_hash" character varying(64) NOT NULL,
      "token_id" character varying(64) NOT NULL,
      "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_console_sessions" PRIMARY KEY ("id_hash"),
      CONSTRAINT "FK_console_sessions_token" FOREIGN KEY ("token_id") REFERENCES "api_tokens"("id") ON DELETE CASCADE
    )`);
    await queryRunner.query(`CREATE INDEX "IDX_console_sessions_token" ON "console_sessions" ("token_id")`);
    await queryRunner.query(`CREATE INDEX "IDX_console_sessions_expires" ON "console_sessions" ("expires_at")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "console_sessions"`);
  }
}
