import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CliModule } from './cli.module';
import { UserPresenter } from './modules/identity/api/user.presenter';
import { IdentityService } from './modules/identity/application/identity.service';
import { OnboardingService } from './modules/organizations/application/onboarding.service';

const USAGE = `Usage:
  cli users:create --email EMAIL --name NAME [--unverified]   create a user and an API token
  cli tokens:create --email EMAIL                            issue another API token
Each command prints one JSON line: {"user": <User>, "token": "<token>"}.`;

type Command = (app: INestApplicationContext, options: Record<string, string | boolean | undefined>) => Promise<unknown>;

const commands: Record<string, Command> = {
  'users:create': async (app, options) => {
    const email = required(options, 'email');
    const name = required(options, 'name');
    const { user, token } = await app.get(OnboardingService).registerUser({
      email,
      displayName: name,
      emailVerified: !options.unverified,
    });
    return { user: app.get(UserPresenter).present(user), token };
  },
  'tokens:create': async (app, options) => {
    const { user, token } = await app.get(IdentityService).issueTokenForEmail(required(options, 'email'));
    return { user: app.get(UserPresenter).present(user), token };
  },
};

function required(options: Record<string, string | boolean | undefined>, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') throw new Error(`--${name} is required`);
  return value;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { email: { type: 'string' }, name: { type: 'string' }, unverified: { type: 'boolean' }, help: { type: 'boolean' } },
  });
  const command = commands[positionals[0] ?? ''];
  if (!command || values.help) {
    process.stderr.write(USAGE + '\n');
    return values.help ? 0 : 2;
  }
  const app = await NestFactory.createApplicationContext(CliModule, { logger: ['error'] });
  try {
    const result = await command(app, values);
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } finally {
    await app.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    process.stderr.write(JSON.stringify({ error: { message: error.message } }) + '\n');
    process.exit(1);
  },
);
