import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Published pages are cached by each API process; these triggers tell every process (LISTEN
 * published_sites) when a site, its structure version or its share links change, at commit.
 * Statement-level: one notification per statement, and PostgreSQL folds repeats in a transaction.
 */
export class PublishedSitesNotify1795574199089 implements MigrationInterface {
  name = 'PublishedSitesNotify1795574199089';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION notify_published_sites() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('published_sites', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(`CREATE TRIGGER sites_notify_published AFTER INSERT OR UPDATE OR DELETE ON sites FOR EACH STATEMENT EXECUTE FUNCTION notify_published_sites()`);
    await queryRunner.query(`CREATE TRIGGER site_share_links_notify_published AFTER INSERT OR UPDATE OR DELETE ON site_share_links FOR EACH STATEMENT EXECUTE FUNCTION notify_published_sites()`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER site_share_links_notify_published ON site_share_links`);
    await queryRunner.query(`DROP TRIGGER sites_notify_published ON sites`);
    await queryRunner.query(`DROP FUNCTION notify_published_sites()`);
  }
}
