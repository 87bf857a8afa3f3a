import * as Joi from 'joi';

/**
 * Every environment variable the processes read, with its default. The process refuses to
 * start when one is invalid, naming the variable. Keep README's table in step with this.
 */
export const configSchema = Joi.object({
  NODE_ENV: Joi.string().valid('development', 'production', 'test').default('development'),
  PORT: Joi.number().port().default(3000),
  DATABASE_URL: Joi.string()
    .uri({ scheme: ['postgres', 'postgresql'] })
    .default('postgres://postgres@127.0.0.1:5432/docs_platform'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }).default('redis://127.0.0.1:6379'),
  PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  MIGRATIONS_RUN: Joi.boolean().default(true),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  BODY_LIMIT: Joi.string().pattern(/^\d+(b|kb|mb)$/i).default('1mb'),
  QUEUE_PREFIX: Joi.string().pattern(/^[A-Za-z0-9:_-]+$/).default('docs'),
  SPACE_RETENTION_DAYS: Joi.number().integer().min(1).max(365).default(7),
  SPACE_PURGE_EVERY_MS: Joi.number().integer().min(1000).default(60 * 60 * 1000),
  DB_POOL_SIZE: Joi.number().integer().min(1).max(200).default(10),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(10000),
  OUTBOUND_ALLOW_PRIVATE: Joi.boolean().default(false),
  FILES_DIR: Joi.string().min(1).default('./var/files'),
}).unknown(true);

export interface AppConfig {
  nodeEnv: string;
  port: number;
  databaseUrl: string;
  redisUrl: string;
  publicUrl: string;
  migrationsRun: boolean;
  logLevel: string;
  bodyLimit: string;
  queuePrefix: string;
  spaceRetentionDays: number;
  spacePurgeEveryMs: number;
  dbPoolSize: number;
  shutdownTimeoutMs: number;
  outboundAllowPrivate: boolean;
  /** Directory of the local-disk file storage (uploaded content files). */
  filesDir: string;
}

export const APP_CONFIG = Symbol('APP_CONFIG');

/** Validates raw environment values and returns the typed configuration, or throws naming the variable. */
export function loadConfig(env: Record<string, string | undefined>): AppConfig {
  const { error, value } = configSchema.validate(env, { abortEarly: false, convert: true });
  if (error) {
    const details = error.details.map((d) => `${d.context?.key ?? d.path.join('.')}: ${d.message}`).join('; ');
    throw new Error(`Invalid configuration: ${details}`);
  }
  const port = value.PORT as number;
  return {
    nodeEnv: value.NODE_ENV,
    port,
    databaseUrl: value.DATABASE_URL,
    redisUrl: value.REDIS_URL,
    publicUrl: String(value.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    migrationsRun: value.MIGRATIONS_RUN,
    logLevel: value.LOG_LEVEL,
    bodyLimit: value.BODY_LIMIT,
    queuePrefix: value.QUEUE_PREFIX,
    spaceRetentionDays: value.SPACE_RETENTION_DAYS,
    spacePurgeEveryMs: value.SPACE_PURGE_EVERY_MS,
    dbPoolSize: value.DB_POOL_SIZE,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    outboundAllowPrivate: value.OUTBOUND_ALLOW_PRIVATE,
    filesDir: value.FILES_DIR,
  };
}
