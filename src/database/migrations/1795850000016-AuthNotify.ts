import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each API process keeps the tokens it has authenticated for a short while; these triggers tell
 * every process (LISTEN auth_changed) at commit when a token or its user changes in a way that
 * can change what a request with it may do: a token revoked or altered, a user disabled, deleted
 * or edited. `last_used_at` (written in batches every few seconds) is left out on purpose, and
 * new tokens need no notice. Statement-level: one notification per statement.
 */
export class AuthNotify1795850000016 implements MigrationInterface {
  name = 'AuthNotify1795850000016';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`CREATE FUNCTION notify_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('auth_changed', '');
        RETURN NULL;
      END $$`);
    await queryRunner.query(
      `CREATE TRIGGER api_tokens_notify_auth AFTER DELETE OR TRUNCATE OR UPDATE OF user_id, token_hash, organization_id, expires_at ON api_tokens
         FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed()`,
    );
    await queryRunner.query(
      `CREATE TRIGGER users_notify_auth AFTER DELETE OR TRUNCATE OR UPDATE OF id, email, display_name, photo_url, email_verified, instance_admin, disabled_at ON users
         FOR EACH STATEMENT EXECUTE FUNCTION notify_auth_changed()`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER users_notify_auth ON users`);
    await queryRunner.query(`DROP TRIGGER api_tokens_notify_auth ON api_tokens`);
    await queryRunner.query(`DROP FUNCTION notify_auth_changed()`);
  }
}
