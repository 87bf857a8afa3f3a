import 'reflect-metadata';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig } from '@app/common';
import { ensureDatabase } from './bootstrap/database-ready';
import { CliModule, DocsCliModule } from './cli.module';
import { DocsPublisher } from './modules/docs-publish/application/docs-publisher.service';
import { dataDir, useEmbeddedConnectionWhenUnset } from './embedded/connection-file';
import { JOBS_USAGE, jobCommands } from './jobs/cli/jobs.commands';
import { UserPresenter } from './modules/identity/api/user.presenter';
import { IdentityService } from './modules/identity/application/identity.service';
import { ApiTokenInfo, parseLifetime } from './modules/identity/domain/api-token';
import { User } from './modules/identity/domain/user';
import { OnboardingService } from './modules/organizations/application/onboarding.service';

const USAGE = `Usage:
  cli users:create --email EMAIL --name NAME [--unverified] [--instance-admin] [--expires-in 30d]
                                              create a user and an API token
  cli users:list                              every user, with createdAt and disabledAt
  cli users:disable --email EMAIL             the user's tokens answer 401 from now on
  cli users:enable --email EMAIL              undo users:disable (tokens not expired work again)
  cli users:promote --email EMAIL [--revoke]  open (or, with --revoke, close) the operator console to a user
  cli tokens:create --email EMAIL [--expires-in 12h]
                                              issue another API token
  cli tokens:list --email EMAIL               the user's tokens: id, prefix, createdAt, lastUsedAt, expiresAt
  cli tokens:revoke TOKEN_ID                  delete a token for good
  cli docs:publish [--email EMAIL] [--dir docs]
                                              import our documentation through Git Sync and publish it as
                                              a site (organization, space and site "Docs Platform"; again
                                              to update it), owned by EMAIL or the first instance admin
  cli files:migrate --to s3                   copy every file under FILES_DIR into the S3_BUCKET (resumable:
                                              run it again after an interruption), before FILES_BACKEND=s3
${JOBS_USAGE}
--expires-in takes a whole number and a unit: m (minutes), h, d or w (weeks).
Each command prints one JSON line; tokens are printed only by the commands that create them.`;

type Options = Record<string, string | boolean | undefined>;
type Command = (app: INestApplicationContext, options: Options, args: string[]) => Promise<unknown>;

const commands: Record<string, Command> = {
  'users:create': async (app, options) => {
    const email = required(options, 'email');
    const name = required(options, 'name');
    const { user, token } = await app.get(OnboardingService).registerUser(
      { email, displayName: name, emailVerified: !options.unverified, instanceAdmin: options['instance-admin'] === true },
      lifetime(options),
    );
    return { user: app.get(UserPresenter).presentOwn(user), instanceAdmin: user.instanceAdmin === true, token };
  },
  'users:list': async (app) => {
    const users = await app.get(IdentityService).listUsers();
    return { users: users.map((user) => operatorUser(app, user)) };
  },
  'users:disable': async (app, options) => {
    const user = await app.get(IdentityService).disableUser(required(options, 'email'));
    return { user: operatorUser(app, user) };
  },
  'users:enable': async (app, options) => {
    const user = await app.get(IdentityService).enableUser(required(options, 'email'));
    return { user: operatorUser(app, user) };
  },
  'users:promote': async (app, options) => {
    const user = await app.get(IdentityService).setInstanceAdmin(required(options, 'email'), !options.revoke);
    return { user: app.get(UserPresenter).presentOwn(user), instanceAdmin: user.instanceAdmin === true };
  },
  ...jobCommands,
  'tokens:create': async (app, options) => {
    const { user, token } = await app.get(IdentityService).issueTokenForEmail(required(options, 'email'), lifetime(options));
    return { user: app.get(UserPresenter).presentOwn(user), token };
  },
  'tokens:list': async (app, options) => {
    const { user, tokens } = await app.get(IdentityService).listTokens(required(options, 'email'));
    return { user: app.get(UserPresenter).presentOwn(user), tokens: tokens.map(operatorToken) };
  },
  'docs:publish': async (app, options) => {
    const dir = resolve(typeof options.dir === 'string' ? options.dir : 'docs');
    if (!existsSync(join(dir, 'SUMMARY.md')) && !existsSync(join(dir, 'README.md'))) throw new Error(`${dir} holds no SUMMARY.md or README.md: name the docs directory with --dir`);
    return app.get(DocsPublisher).publish({ dir, email: typeof options.email === 'string' ? options.email : undefined });
  },
  'tokens:revoke': async (app, _options, args) => {
    const id = args[0];
    if (!id) throw new Error('TOKEN_ID is required (see tokens:list)');
    await app.get(IdentityService).revokeToken(id);
    return { revoked: id };
  },
};

function operatorUser(app: INestApplicationContext, user: User) {
  return {
    ...app.get(UserPresenter).presentOwn(user),
    instanceAdmin: user.instanceAdmin === true,
    createdAt: user.createdAt.toISOString(),
    disabledAt: user.disabledAt?.toISOString() ?? null,
  };
}

function operatorToken(token: ApiTokenInfo) {
  return {
    id: token.id,
    prefix: token.prefix,
    organization: token.organizationId,
    createdAt: token.createdAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    expiresAt: token.expiresAt?.toISOString() ?? null,
  };
}

function lifetime(options: Options): number | null {
  const value = options['expires-in'];
  return typeof value === 'string' ? parseLifetime(value) : null;
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`--${name} is required`);
  return value;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      unverified: { type: 'boolean' },
      'expires-in': { type: 'string' },
      'instance-admin': { type: 'boolean' },
      revoke: { type: 'boolean' },
      state: { type: 'string' },
      limit: { type: 'string' },
      queue: { type: 'string' },
      dir: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const name = positionals[0] ?? '';
  if (values.help || name === 'help') {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (name === 'files:migrate') return migrateFilesCommand(values);
  const command = commands[name];
  if (!command) {
    process.stderr.write(`${name ? `Unknown command "${name}".` : 'No command given.'} Commands:\n${USAGE}\n`);
    return 2;
  }
  // Refuse a bad lifetime before connecting to anything.
  lifetime(values);
  useEmbeddedConnectionWhenUnset(); // beside `npm start`'s embedded mode, use its database
  if (!process.env.DATABASE_URL) {
    // Never a guess: a default server's database would take the user, and its token would not work on the real one.
    throw new Error(
      `No DATABASE_URL is set and no embedded server is running from ${dataDir()}. Start it (npm start) and run the CLI in the ` +
        'directory it runs in (or set DATA_DIR), or set DATABASE_URL to the server\'s database.',
    );
  }
  const config = loadConfig(process.env);
  await ensureDatabase(config.databaseUrl, { attempts: config.dbConnectAttempts, retryMs: config.dbConnectRetryMs });
  if (name === 'docs:publish') {
    // The docs are a repository this command writes on this machine, read over file://: allowed in this process only.
    process.env.GIT_ALLOWED_PROTOCOLS = [...new Set([...config.gitAllowedProtocols, 'file'])].join(',');
  }
  const app = await NestFactory.createApplicationContext(name === 'docs:publish' ? DocsCliModule : CliModule, { logger: ['error'] });
  try {
    const result = await command(app, { ...values, id: positionals[1] }, positionals.slice(1));
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } finally {
    await app.close();
  }
}

/** Needs neither the database nor the app: the two file storages, from FILES_DIR and S3_*. */
async function migrateFilesCommand(options: Options): Promise<number> {
  if (options.to !== 's3') throw new Error('files:migrate copies FILES_DIR into the S3 bucket: give --to s3');
  const config = loadConfig({ ...process.env, FILES_BACKEND: 's3' });
  // Loaded here only: the other commands need no S3 client.
  const { migrateFiles } = await import('./modules/content/application/files-migration');
  const { LocalDiskFileStorage } = await import('./modules/content/infrastructure/file-storage.local');
  const { S3FileStorage } = await import('./modules/content/infrastructure/file-storage.s3');
  const report = await migrateFiles(new LocalDiskFileStorage(config), new S3FileStorage(config.s3), (progress) =>
    process.stderr.write(JSON.stringify({ progress }) + '\n'),
  );
  process.stdout.write(JSON.stringify({ from: resolve(config.filesDir), to: `s3://${config.s3.bucket}`, ...report }) + '\n');
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(JSON.stringify({ error: { message: error.message } }) + '\n');
    process.exit(1);
  },
);
