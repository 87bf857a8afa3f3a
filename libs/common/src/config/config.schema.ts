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
  // A connection that is not pooled in transaction mode (PgBouncer), for LISTEN and the job tables; unset: DATABASE_URL.
  DATABASE_DIRECT_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
  // Named prepared statements for the hot reads; off behind a pooler that cannot carry them (PgBouncer before 1.21).
  DB_PREPARED_STATEMENTS: Joi.boolean().default(true),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }).default('redis://127.0.0.1:6379'),
  // A Redis Cluster (`host:port,host:port,...`, any of its nodes): takes precedence over REDIS_URL.
  REDIS_CLUSTER_NODES: Joi.string().allow('').pattern(/^\s*[A-Za-z0-9.-]+:\d{1,5}(\s*,\s*[A-Za-z0-9.-]+:\d{1,5})*\s*$/).messages({
    'string.pattern.base': 'must be a comma-separated list of host:port',
  }),
  REDIS_PASSWORD: Joi.string().allow(''),
  REDIS_TLS: Joi.boolean().default(false),
  // A PEM file of the CA that signed the cluster nodes' certificates (a private CA); unset: the system's.
  REDIS_TLS_CA_FILE: Joi.string().allow(''),
  PUBLIC_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  MIGRATIONS_RUN: Joi.boolean().default(true),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  BODY_LIMIT: Joi.string().pattern(/^\d+(b|kb|mb)$/i).default('1mb'),
  QUEUE_PREFIX: Joi.string().pattern(/^[A-Za-z0-9:_-]+$/).default('docs'),
  SPACE_RETENTION_DAYS: Joi.number().integer().min(1).max(365).default(7),
  SPACE_PURGE_EVERY_MS: Joi.number().integer().min(1000).default(60 * 60 * 1000),
  DB_POOL_SIZE: Joi.number().integer().min(1).max(200).default(10),
  DB_CONNECT_ATTEMPTS: Joi.number().integer().min(1).max(1000).default(3),
  DB_CONNECT_RETRY_MS: Joi.number().integer().min(0).default(1000),
  SHUTDOWN_TIMEOUT_MS: Joi.number().integer().min(0).default(10000),
  TOKEN_CACHE_SECONDS: Joi.number().min(0).max(3600).default(60),
  OUTBOUND_ALLOW_PRIVATE: Joi.boolean().default(false),
  FILES_DIR: Joi.string().min(1).default('./var/files'),
  // Where files live: `local` (FILES_DIR) or `s3` (a bucket of AWS S3, MinIO, Ceph, R2...).
  FILES_BACKEND: Joi.string().valid('local', 's3').default('local'),
  // Empty values count as unset (a compose file passes every variable, set or not).
  S3_ENDPOINT: Joi.string().allow('').uri({ scheme: ['http', 'https'] }),
  S3_REGION: Joi.string().pattern(/^[a-z0-9-]{1,40}$/).default('us-east-1'),
  S3_BUCKET: Joi.string()
    .allow('')
    .pattern(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/)
    .when('FILES_BACKEND', { is: 's3', then: Joi.required().invalid('') }),
  S3_ACCESS_KEY_ID: Joi.string().allow(''),
  S3_SECRET_ACCESS_KEY: Joi.string().allow(''),
  S3_FORCE_PATH_STYLE: Joi.boolean().default(false),
  S3_REDIRECT_DOWNLOADS: Joi.boolean().default(false),
  // Comma-separated browser origins (`https://app.example.com`) allowed to call the API; none by default.
  TRUST_PROXY: Joi.string()
    .pattern(/^(?:true|false|\d{1,2}|[\w.:/]+(?:\s*,\s*[\w.:/]+)*)$/)
    .default('false'),
  CORS_ORIGINS: Joi.string()
    .allow('')
    .pattern(/^\s*(https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?\s*(,\s*|$))*$/)
    .default('')
    .messages({ 'string.pattern.base': 'must be a comma-separated list of origins like https://app.example.com' }),
  FILES_SWEEP_EVERY_MS: Joi.number().integer().min(1000).default(60 * 60 * 1000),
  FILES_SWEEP_GRACE_MS: Joi.number().integer().min(60 * 1000).default(60 * 60 * 1000),
  // Unset: Redis when REDIS_URL or REDIS_CLUSTER_NODES is given, PostgreSQL (the DATABASE_URL database) otherwise.
  JOBS_BACKEND: Joi.string().valid('redis', 'postgres'),
  JOBS_PG_SCHEMA: Joi.string().pattern(/^[a-z_][a-z0-9_]{0,62}$/).default('bullmq'),
  JOBS_LOCK_MS: Joi.number().integer().min(500).default(30000),
  JOBS_STALLED_INTERVAL_MS: Joi.number().integer().min(500).default(30000),
  JOBS_OUTAGE_PATIENCE_MS: Joi.number().integer().min(0).default(60 * 60 * 1000),
  JOBS_ENQUEUE_WAIT_MS: Joi.number().integer().min(0).default(2000),
  JOBS_OUTBOX_SWEEP_MS: Joi.number().integer().min(1000).default(15000),
  METRICS_TOKEN: Joi.string().min(16),
  METRICS_PORT: Joi.number().port(),
  GIT_SYNC_DIR: Joi.string().min(1).default('./var/git-sync'),
  GIT_ALLOWED_PROTOCOLS: Joi.string().pattern(/^[a-z]+(,[a-z]+)*$/).default('https,ssh'),
  GIT_SYNC_TIMEOUT_MS: Joi.number().integer().min(1000).default(5 * 60 * 1000),
  GIT_SYNC_MAX_BYTES: Joi.number().integer().min(1024).default(1024 * 1024 * 1024),
  GIT_SYNC_MAX_FILES: Joi.number().integer().min(1).default(50000),
  SECRETS_KEY: Joi.string().pattern(/^[A-Za-z0-9+/_-]{43}=?$/),
  OPENAPI_MAX_BYTES: Joi.number().integer().min(1024).default(20 * 1024 * 1024),
  OPENAPI_FETCH_TIMEOUT_MS: Joi.number().integer().min(100).default(30_000),
  OPENAPI_MAX_FILES: Joi.number().integer().min(1).default(100),
  OPENAPI_REFRESH_EVERY_MS: Joi.number().integer().min(0).default(0),
  IMPORT_MAX_PAGES: Joi.number().integer().min(1).max(10000).default(100),
  AI_API_URL: Joi.string().uri({ scheme: ['http', 'https'] }),
  AI_API_KEY: Joi.string(),
  AI_MODEL: Joi.string().max(200),
  AI_MAX_CONCURRENCY: Joi.number().integer().min(1).max(64).default(4),
  AI_TIMEOUT_MS: Joi.number().integer().min(1000).default(120_000),
  AI_MAX_RETRIES: Joi.number().integer().min(0).max(10).default(4),
  AI_BUDGET_REQUESTS_PER_DAY: Joi.number().integer().min(0).default(0),
  SITE_SCANS_EVERY_MS: Joi.number().integer().min(0).default(86_400_000),
  AI_BUDGET_TOKENS_PER_DAY: Joi.number().integer().min(0).default(0),
  STYLEGUIDE_MAX_PAGES: Joi.number().integer().min(1).max(100_000).default(1000),
  RATE_LIMITS: Joi.string().valid('on', 'off').default('on'),
  RATE_LIMIT_WINDOW_SECONDS: Joi.number().integer().min(1).max(3600).default(60),
  RATE_LIMIT_TOKEN_READS: Joi.number().integer().min(1).default(3000),
  RATE_LIMIT_TOKEN_WRITES: Joi.number().integer().min(1).default(600),
  RATE_LIMIT_ADDRESS_READS: Joi.number().integer().min(1).default(6000),
  RATE_LIMIT_ADDRESS_WRITES: Joi.number().integer().min(1).default(1200),
  RATE_LIMIT_READER_PAGES: Joi.number().integer().min(1).default(1200),
  RATE_LIMIT_READER_SEARCHES: Joi.number().integer().min(1).default(120),
  WEBHOOK_RETRY_BASE_MS: Joi.number().integer().min(10).default(30_000),
  WEBHOOK_RETRY_MAX_MS: Joi.number().integer().min(10).default(60 * 60 * 1000),
  WEBHOOK_DISABLE_AFTER_HOURS: Joi.number().min(0.001).default(24),
  WEBHOOK_TIMEOUT_MS: Joi.number().integer().min(100).max(60_000).default(10_000),
  EVENTS_SWEEP_MS: Joi.number().integer().min(100).default(5000),
  AUDIT_RETENTION_DAYS: Joi.number().integer().min(1).default(365),
  /** Readers' events (site insights) are kept this long; the daily counts built from them, INSIGHTS_RETENTION_DAYS. */
  INSIGHTS_EVENTS_RETENTION_DAYS: Joi.number().integer().min(1).default(31),
  INSIGHTS_RETENTION_DAYS: Joi.number().integer().min(1).default(400),
  /** How often the worker folds new readers' events into the daily counts. */
  INSIGHTS_ROLLUP_EVERY_MS: Joi.number().integer().min(1000).default(60_000),
  /** Readers' events wait in memory at most this long before one batch writes them. */
  INSIGHTS_FLUSH_MS: Joi.number().integer().min(10).default(1000),
  /** Events younger than this wait for the next rollup (a batch still being written may hold lower ids). */
  INSIGHTS_SETTLE_MS: Joi.number().integer().min(0).default(5000),
  /** `dns`: a site's host name is served once a DNS TXT record proves the claim; `off`: at once (one trusted organization). */
  HOSTNAME_VERIFICATION: Joi.string().valid('dns', 'off').default('dns'),
  /** DNS servers (`ip` or `ip:port`, comma-separated) that check host name claims; empty: the system's resolvers. */
  HOSTNAME_VERIFY_RESOLVER: Joi.string().allow('').default(''),
  IDEMPOTENCY: Joi.string().valid('on', 'off').default('on'),
  IDEMPOTENCY_TTL_HOURS: Joi.number().min(0.01).max(24 * 30).default(24),
}).unknown(true);

export interface AppConfig {
  nodeEnv: string;
  port: number;
  databaseUrl: string;
  /** PostgreSQL without a transaction-mode pooler between: LISTEN connections and the PostgreSQL job backend. */
  databaseDirectUrl: string;
  /** The hot reads run as named prepared statements (PostgreSQL plans them once per connection). */
  dbPreparedStatements: boolean;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES: a Redis Cluster instead of REDIS_URL's one node, with its password and TLS. */
  redisCluster?: { nodes: { host: string; port: number }[]; password?: string; tls: boolean; tlsCaFile?: string };
  publicUrl: string;
  migrationsRun: boolean;
  logLevel: string;
  bodyLimit: string;
  queuePrefix: string;
  spaceRetentionDays: number;
  spacePurgeEveryMs: number;
  dbPoolSize: number;
  /** How many times a process tries to reach PostgreSQL at start before it gives up. */
  dbConnectAttempts: number;
  dbConnectRetryMs: number;
  shutdownTimeoutMs: number;
  /** How long an API process may reuse a token it authenticated (0: never); changes reach it sooner by LISTEN/NOTIFY. */
  tokenCacheMs: number;
  outboundAllowPrivate: boolean;
  /** Directory of the local-disk file storage (uploaded content files). */
  filesDir: string;
  /** Where files live: FILES_DIR (`local`) or an S3 bucket (`s3`, with `s3`'s settings). */
  filesBackend: 'local' | 's3';
  s3: { endpoint?: string; region: string; bucket: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean; redirectDownloads?: boolean };
  /** Browser origins allowed by CORS (exact `scheme://host[:port]`); empty: no CORS headers at all. */
  corsOrigins: string[];
  /** Express's `trust proxy`: false, true, a number of hops, or addresses and subnets (`loopback, 10.0.0.0/8`). */
  trustProxy: boolean | number | string[];
  /** How often the worker sweeps FILES_DIR for partial writes and unreferenced files. */
  filesSweepEveryMs: number;
  /** Files younger than this are never swept: a commit may be about to reference them. */
  filesSweepGraceMs: number;
  /** Where jobs live: Redis (production) or the PostgreSQL database (embedded and Redis-less installs). */
  jobsBackend: 'redis' | 'postgres';
  /** PostgreSQL schema of the job tables when jobsBackend is postgres. */
  jobsPgSchema: string;
  /** How long a worker holds a job's lock without renewing it; a killed worker's job is retried after about this. */
  jobsLockMs: number;
  /** How often workers look for jobs whose lock expired (stalled) and put them back in the queue. */
  jobsStalledIntervalMs: number;
  /** A job that fails because a dependency is away is put back, spending no attempt, while younger than this. */
  jobsOutagePatienceMs: number;
  /** How long a request waits for the queue to take the jobs its use case staged; past it the outbox sweep queues them. */
  jobsEnqueueWaitMs: number;
  /** How often the worker queues staged jobs that were committed and never queued. */
  jobsOutboxSweepMs: number;
  /** Bearer token that opens /metrics; unset keeps /metrics off. */
  metricsToken?: string;
  /** The worker process serves its /metrics (job runs, queue depth) on this port, with METRICS_TOKEN. */
  metricsPort?: number;
  /** Git Sync: where per-space clones are cached. */
  gitSyncDir: string;
  /** Git Sync: remote URL schemes accepted (`https,ssh`; tests add `file`). */
  gitAllowedProtocols: string[];
  gitSyncTimeoutMs: number;
  /** Git Sync: largest checkout (bytes of the working tree) and most files read. */
  gitSyncMaxBytes: number;
  gitSyncMaxFiles: number;
  /** 32 bytes, base64: encrypts stored secrets (Git Sync credentials). Unset: URLs with credentials are refused. */
  secretsKey?: string;
  /** OpenAPI processing: largest source (the entrypoint and each referenced file), fetch time limit, most files per spec. */
  openapiMaxBytes: number;
  openapiFetchTimeoutMs: number;
  openapiMaxFiles: number;
  /** Re-process URL-sourced specs this often; 0 (the default) turns the schedule off. */
  openapiRefreshEveryMs: number;
  /** Pages one website import reads at most. */
  importMaxPages: number;
  /** An OpenAI-compatible chat-completions API (`https://host/v1`); translations need it. Unset: no model. */
  aiApiUrl?: string;
  aiApiKey?: string;
  aiModel?: string;
  /** Model calls in flight at once per process, each call's time limit, and retries on 429 and 5xx. */
  aiMaxConcurrency: number;
  aiTimeoutMs: number;
  aiMaxRetries: number;
  /** How often the worker scans the sites that scan automatically and got new questions or records (0: never). */
  siteScansEveryMs: number;
  /** Each organization's model budget per UTC day: calls and tokens (0: no limit). Spent, a call is refused (429). */
  aiBudget: { requestsPerDay: number; tokensPerDay: number };
  /** Document pages one style guide check sends to the model, in tree order; the rest are counted as unchecked. */
  styleguideMaxPages: number;
  /** Request budgets per window: per token and per client address, reads (GET/HEAD) and writes apart. */
  rateLimits: {
    enabled: boolean;
    windowSeconds: number;
    tokenReads: number;
    tokenWrites: number;
    addressReads: number;
    addressWrites: number;
    /** Published sites, per reader address: pages and searches. */
    readerPages: number;
    readerSearches: number;
  };
  /** Webhook deliveries: backoff from base to max between tries; a webhook failing this long is disabled. */
  webhooks: { retryBaseMs: number; retryMaxMs: number; disableAfterMs: number; timeoutMs: number };
  /** How often the worker sweeps the outbox and due deliveries (commits also wake it at once). */
  eventsSweepMs: number;
  auditRetentionDays: number;
  insights: { eventsRetentionDays: number; retentionDays: number; rollupEveryMs: number; flushMs: number; settleMs: number };
  /** `Idempotency-Key` on POST and PATCH: stored answers are replayed for this long. */
  idempotency: { enabled: boolean; ttlMs: number };
  /** Sites' own host names: proved by a DNS TXT record (`dns`) or trusted at once (`off`); `resolver`: empty for the system's. */
  hostnames: { verification: 'dns' | 'off'; resolver: string[] };
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
    databaseDirectUrl: value.DATABASE_DIRECT_URL ?? value.DATABASE_URL,
    dbPreparedStatements: value.DB_PREPARED_STATEMENTS,
    redisUrl: value.REDIS_URL,
    redisCluster: value.REDIS_CLUSTER_NODES
      ? {
          nodes: String(value.REDIS_CLUSTER_NODES)
            .split(',')
            .map((node) => node.trim())
            .map((node) => ({ host: node.slice(0, node.lastIndexOf(':')), port: Number(node.slice(node.lastIndexOf(':') + 1)) })),
          password: value.REDIS_PASSWORD || undefined,
          tls: value.REDIS_TLS || Boolean(value.REDIS_TLS_CA_FILE),
          tlsCaFile: value.REDIS_TLS_CA_FILE || undefined,
        }
      : undefined,
    publicUrl: String(value.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    migrationsRun: value.MIGRATIONS_RUN,
    logLevel: value.LOG_LEVEL,
    bodyLimit: value.BODY_LIMIT,
    queuePrefix: value.QUEUE_PREFIX,
    spaceRetentionDays: value.SPACE_RETENTION_DAYS,
    spacePurgeEveryMs: value.SPACE_PURGE_EVERY_MS,
    dbPoolSize: value.DB_POOL_SIZE,
    dbConnectAttempts: value.DB_CONNECT_ATTEMPTS,
    dbConnectRetryMs: value.DB_CONNECT_RETRY_MS,
    shutdownTimeoutMs: value.SHUTDOWN_TIMEOUT_MS,
    tokenCacheMs: Math.round(value.TOKEN_CACHE_SECONDS * 1000),
    outboundAllowPrivate: value.OUTBOUND_ALLOW_PRIVATE,
    filesDir: value.FILES_DIR,
    filesBackend: value.FILES_BACKEND,
    s3: {
      endpoint: value.S3_ENDPOINT || undefined,
      region: value.S3_REGION,
      bucket: value.S3_BUCKET ?? '',
      accessKeyId: value.S3_ACCESS_KEY_ID || undefined,
      secretAccessKey: value.S3_SECRET_ACCESS_KEY || undefined,
      forcePathStyle: value.S3_FORCE_PATH_STYLE,
      redirectDownloads: value.S3_REDIRECT_DOWNLOADS,
    },
    trustProxy: parseTrustProxy(String(value.TRUST_PROXY)),
    corsOrigins: String(value.CORS_ORIGINS)
      .split(',')
      .map((origin) => origin.trim())
      .filter(Boolean),
    filesSweepEveryMs: value.FILES_SWEEP_EVERY_MS,
    filesSweepGraceMs: value.FILES_SWEEP_GRACE_MS,
    jobsBackend: value.JOBS_BACKEND ?? (env.REDIS_URL || env.REDIS_CLUSTER_NODES ? 'redis' : 'postgres'),
    jobsPgSchema: value.JOBS_PG_SCHEMA,
    jobsLockMs: value.JOBS_LOCK_MS,
    jobsStalledIntervalMs: value.JOBS_STALLED_INTERVAL_MS,
    jobsOutagePatienceMs: value.JOBS_OUTAGE_PATIENCE_MS,
    jobsEnqueueWaitMs: value.JOBS_ENQUEUE_WAIT_MS,
    jobsOutboxSweepMs: value.JOBS_OUTBOX_SWEEP_MS,
    metricsToken: value.METRICS_TOKEN,
    metricsPort: value.METRICS_PORT,
    gitSyncDir: value.GIT_SYNC_DIR,
    gitAllowedProtocols: String(value.GIT_ALLOWED_PROTOCOLS).split(','),
    gitSyncTimeoutMs: value.GIT_SYNC_TIMEOUT_MS,
    gitSyncMaxBytes: value.GIT_SYNC_MAX_BYTES,
    gitSyncMaxFiles: value.GIT_SYNC_MAX_FILES,
    secretsKey: value.SECRETS_KEY,
    openapiMaxBytes: value.OPENAPI_MAX_BYTES,
    openapiFetchTimeoutMs: value.OPENAPI_FETCH_TIMEOUT_MS,
    openapiMaxFiles: value.OPENAPI_MAX_FILES,
    openapiRefreshEveryMs: value.OPENAPI_REFRESH_EVERY_MS,
    importMaxPages: value.IMPORT_MAX_PAGES,
    aiApiUrl: value.AI_API_URL,
    aiApiKey: value.AI_API_KEY,
    aiModel: value.AI_MODEL,
    aiMaxConcurrency: value.AI_MAX_CONCURRENCY,
    aiTimeoutMs: value.AI_TIMEOUT_MS,
    aiMaxRetries: value.AI_MAX_RETRIES,
    siteScansEveryMs: value.SITE_SCANS_EVERY_MS,
    aiBudget: { requestsPerDay: value.AI_BUDGET_REQUESTS_PER_DAY, tokensPerDay: value.AI_BUDGET_TOKENS_PER_DAY },
    styleguideMaxPages: value.STYLEGUIDE_MAX_PAGES,
    rateLimits: {
      enabled: value.RATE_LIMITS === 'on',
      windowSeconds: value.RATE_LIMIT_WINDOW_SECONDS,
      tokenReads: value.RATE_LIMIT_TOKEN_READS,
      tokenWrites: value.RATE_LIMIT_TOKEN_WRITES,
      addressReads: value.RATE_LIMIT_ADDRESS_READS,
      addressWrites: value.RATE_LIMIT_ADDRESS_WRITES,
      readerPages: value.RATE_LIMIT_READER_PAGES,
      readerSearches: value.RATE_LIMIT_READER_SEARCHES,
    },
    webhooks: {
      retryBaseMs: value.WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: value.WEBHOOK_RETRY_MAX_MS,
      disableAfterMs: Math.round(value.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000),
      timeoutMs: value.WEBHOOK_TIMEOUT_MS,
    },
    eventsSweepMs: value.EVENTS_SWEEP_MS,
    auditRetentionDays: value.AUDIT_RETENTION_DAYS,
    insights: {
      eventsRetentionDays: value.INSIGHTS_EVENTS_RETENTION_DAYS,
      retentionDays: value.INSIGHTS_RETENTION_DAYS,
      rollupEveryMs: value.INSIGHTS_ROLLUP_EVERY_MS,
      flushMs: value.INSIGHTS_FLUSH_MS,
      settleMs: value.INSIGHTS_SETTLE_MS,
    },
    idempotency: { enabled: value.IDEMPOTENCY === 'on', ttlMs: Math.round(value.IDEMPOTENCY_TTL_HOURS * 3_600_000) },
    hostnames: { verification: value.HOSTNAME_VERIFICATION, resolver: parseResolvers(value.HOSTNAME_VERIFY_RESOLVER) },
  };
}

/** `HOSTNAME_VERIFY_RESOLVER`: `ip` or `ip:port` entries (IPv6 as `[addr]:port`), comma-separated. */
function parseResolvers(raw: string): string[] {
  const servers = raw.split(',').map((part) => part.trim()).filter(Boolean);
  for (const server of servers) {
    if (!/^(\d{1,3}(\.\d{1,3}){3}(:\d{1,5})?|\[[0-9a-fA-F:]+\](:\d{1,5})?|[0-9a-fA-F:]+)$/.test(server)) {
      throw new Error(`Invalid configuration: HOSTNAME_VERIFY_RESOLVER: "${server}" is not an address (ip or ip:port)`);
    }
  }
  return servers;
}

/** `TRUST_PROXY`: `false` (the default), `true`, a number of proxy hops, or a comma-separated list of addresses and subnets. */
function parseTrustProxy(raw: string): boolean | number | string[] {
  if (raw === 'false' || raw === '') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw.split(',').map((entry) => entry.trim()).filter(Boolean);
}
