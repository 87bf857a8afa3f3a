import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The number of live (not deleted) spaces of each organization, kept by statement-level triggers
 * on `spaces` in the writing transaction, so the `count` of an organization's space list is one
 * row read instead of a scan of every space (a million-space organization lists as fast as a
 * small one). Statement triggers with transition tables: a bulk insert updates each counter once.
 * No foreign key: the cascade that deletes an organization's spaces must not race its counter.
 */
export class SpaceCounts1795587034166 implements MigrationInterface {
  name = 'SpaceCounts1795587034166';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE TABLE "space_counts" ("organization_id" varchar(32) PRIMARY KEY, "live" bigint NOT NULL DEFAULT 0)`);
    await queryRunner.query(`INSERT INTO space_counts (organization_id, live) SELECT organization_id, count(*) FROM spaces WHERE deleted_at IS NULL GROUP BY organization_id`);
    await queryRunner.query(`
      CREATE FUNCTION space_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO space_counts (organization_id, live)
            SELECT organization_id, count(*) FROM new_rows WHERE deleted_at IS NULL GROUP BY organization_id
          ON CONFLICT (organization_id) DO UPDATE SET live = space_counts.live + EXCLUDED.live;
        ELSIF TG_OP = 'UPDATE' THEN
          INSERT INTO space_counts (organization_id, live)
            SELECT organization_id, sum(delta) FROM (
              SELECT organization_id, 1 AS delta FROM new_rows WHERE deleted_at IS NULL
              UNION ALL SELECT organization_id, -1 FROM old_rows WHERE deleted_at IS NULL) moved
            GROUP BY organization_id HAVING sum(delta) <> 0
          ON CONFLICT (organization_id) DO UPDATE SET live = space_counts.live + EXCLUDED.live;
        ELSE
          UPDATE space_counts c SET live = c.live - gone.n
            FROM (SELECT organization_id, count(*) AS n FROM old_rows WHERE deleted_at IS NULL GROUP BY organization_id) gone
           WHERE c.organization_id = gone.organization_id;
        END IF;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER space_counts_insert AFTER INSERT ON spaces REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION space_counts_apply()`);
    await queryRunner.query(
      `CREATE TRIGGER space_counts_update AFTER UPDATE ON spaces REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION space_counts_apply()`,
    );
    await queryRunner.query(`CREATE TRIGGER space_counts_delete AFTER DELETE ON spaces REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION space_counts_apply()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER space_counts_delete ON spaces`);
    await queryRunner.query(`DROP TRIGGER space_counts_update ON spaces`);
    await queryRunner.query(`DROP TRIGGER space_counts_insert ON spaces`);
    await queryRunner.query(`DROP FUNCTION space_counts_apply()`);
    await queryRunner.query(`DROP TABLE "space_counts"`);
  }
}
