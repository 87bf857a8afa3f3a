import { randomBytes } from 'node:crypto';
import { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig, CLOCK, ManualClock, loadConfig } from '@app/common';
import { AppModule } from '../../../src/app.module';
import { configureApi } from '../../../src/bootstrap/configure-api';
import { TokenCache } from '../../../src/modules/identity/infrastructure/token-cache';
import { OnboardingService } from '../../../src/modules/organizations/application/onboarding.service';
import { checkContract } from './contract';
import { createTestDatabase, dropTestDatabase, uniqueTestName } from './database';
import { removeQueueKeys } from './redis-keys';
import { directTestUrl, pooledTestUrl, testRedisUrl } from './services';

export interface ApiResponse<T = any> {
  status: number;
  body: T;
  headers: Record<string, string>;
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** An HTTP client for one caller. Every response is checked against GitBook's contract. */
export class ApiClient {
  constructor(
    private readonly app: INestApplication,
    readonly token?: string,
  ) {}

  get<T = any>(path: string, query?: Record<string, unknown>) {
    return this.send<T>('get', path, undefined, query);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.send<T>('post', path, body);
  }
  put<T = any>(path: string, body?: unknown) {
    return this.send<T>('put', path, body);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.send<T>('patch', path, body);
  }
  delete<T = any>(path: string) {
    return this.send<T>('delete', path);
  }

  async send<T>(method: Method, path: string, body?: unknown, query?: Record<string, unknown>): Promise<ApiResponse<T>> {
    let req = request(this.app.getHttpServer())[method](path);
    if (this.token) req = req.set('Authorization', `Bearer ${this.token}`);
    if (query) req = req.query(query as Record<string, string>);
    if (body !== undefined) req = req.send(body as object);
    const res = await req;
    const parsed = res.status === 204 || res.status === 205 ? res.text || undefined : res.body;
    checkContract(method, path, res.status, parsed);
    return { status: res.status, body: parsed as T, headers: res.headers as Record<string, string> };
  }

  /**
   * The same requests for setup writes: an answer of 400 or more throws at once, naming the request
   * and the error, instead of letting the test fail later for a reason far from its cause.
   */
  get must(): Pick<ApiClient, 'post' | 'put' | 'patch' | 'delete'> {
    const checked =
      (method: Method) =>
      async <T>(path: string, body?: unknown): Promise<ApiResponse<T>> => {
        const res = await this.send<T>(method, path, body);
        if (res.status >= 400) throw new Error(`setup write ${method.toUpperCase()} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
        return res;
      };
    return { post: checked('post'), put: checked('put'), patch: checked('patch'), delete: checked('delete') };
  }

  /** A request with a raw body (malformed JSON, odd content types); still contract-checked. */
  async raw(method: Method, path: string, body: string, contentType = 'application/json'): Promise<ApiResponse> {
    let req = request(this.app.getHttpServer())[method](path).set('Content-Type', contentType);
    if (this.token) req = req.set('Authorization', `Bearer ${this.token}`);
    const res = await req.send(body);
    checkContract(method, path, res.status, res.body);
    return { status: res.status, body: res.body, headers: res.headers as Record<string, string> };
  }
}

export interface TestUser {
  id: string;
  email: string;
  token: string;
  client: ApiClient;
}

/**
 * A running API on its own database (cloned from the migrated template) and its own queue
 * prefix (Redis) or job schema (PostgreSQL, inside its database), with a clock the test controls. Real PostgreSQL and Redis underneath.
 */
export class TestApp {
  private counter = 0;

  private constructor(
    readonly app: INestApplication,
    readonly clock: ManualClock,
    readonly config: AppConfig,
    private readonly databaseName: string,
  ) {}

  /** Rate limits are off unless a test turns them on (`rateLimits`): suites make many requests with one token; so is host name verification. */
  static async start(overrides: Partial<AppConfig> = {}): Promise<TestApp> {
    const databaseName = uniqueTestName('app');
    const databaseUrl = await createTestDatabase(databaseName);
    const loaded = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
    const config: AppConfig = {
      ...loaded,
      rateLimits: { ...loaded.rateLimits, enabled: false },
      // Host names are trusted at once unless a test proves them (custom-hostnames.e2e runs its own DNS server).
      hostnames: { ...loaded.hostnames, verification: 'off' },
      databaseUrl,
      migrationsRun: false,
      queuePrefix: databaseName,
      publicUrl: 'http://docs.test',
      dbPoolSize: 5,
      ...overrides,
    };
    // Under TEST_PGBOUNCER=1 queries go through the run's PgBouncer (transaction mode); LISTEN and jobs do not.
    if (!overrides.databaseDirectUrl) {
      const direct = directTestUrl(config.databaseUrl);
      const pooled = pooledTestUrl(direct);
      Object.assign(config, pooled ? { databaseUrl: pooled, databaseDirectUrl: direct, dbPreparedStatements: false } : { databaseDirectUrl: direct });
    }
    const clock = new ManualClock(new Date('2026-01-15T10:00:00.000Z'));
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(APP_CONFIG)
      .useValue(config)
      .overrideProvider(CLOCK)
      .useValue(clock)
      .compile();
    const app = moduleRef.createNestApplication({ bodyParser: false, logger: false });
    configureApi(app, config);
    await app.init();
    return new TestApp(app, clock, config, databaseName);
  }

  get<T>(token: unknown): T {
    return this.app.get(token as never);
  }

  get dataSource(): DataSource {
    return this.app.get(DataSource);
  }

  /**
   * Changes tokens or users behind the API's back, as another process would (SQL, the CLI), and
   * waits until this API has heard of it: the token cache forgets on the commit's notification,
   * which reaches a replica within milliseconds, not before the statement returns.
   */
  async changeAuth(sql: string, params: unknown[] = []): Promise<void> {
    const cache = this.get<TokenCache>(TokenCache);
    const before = cache.mark();
    await this.dataSource.query(sql, params);
    if (!cache.live) return;
    for (const deadline = Date.now() + 5000; cache.mark() === before; ) {
      if (Date.now() > deadline) throw new Error('the API never heard of the change (no auth_changed notification)');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }

  client(token?: string): ApiClient {
    return new ApiClient(this.app, token);
  }

  /** A user and token, made as the operator CLI makes them. */
  async user(name?: string, options: { email?: string; emailVerified?: boolean } = {}): Promise<TestUser> {
    const n = ++this.counter;
    const displayName = name ?? `User ${n}`;
    const email = options.email ?? `user${n}-${randomBytes(3).toString('hex')}@example.com`;
    const { user, token } = await this.get<OnboardingService>(OnboardingService).registerUser({
      email,
      displayName,
      emailVerified: options.emailVerified,
    });
    return { id: user.id, email: user.email, token, client: this.client(token) };
  }

  /** An organization created by `owner` through the API, with `members` invited at the given roles. */
  async organization(owner: TestUser, members: [TestUser, string | null][] = [], title = 'Acme Docs'): Promise<string> {
    const created = await owner.client.post('/v1/orgs', { title });
    if (created.status !== 201) throw new Error(`organization not created: ${JSON.stringify(created.body)}`);
    const id = created.body.id as string;
    for (const [member, role] of members) {
      const invited = await owner.client.post(`/v1/orgs/${id}/invites`, { emails: [{ email: member.email, role }] });
      if (invited.status !== 200) throw new Error(`member not invited: ${JSON.stringify(invited.body)}`);
    }
    return id;
  }

  async close(): Promise<void> {
    await this.app.close();
    // The job data of the PostgreSQL backend goes with the database; Redis keeps it under the prefix.
    if (this.config.jobsBackend === 'redis' && this.config.redisUrl === testRedisUrl()) {
      await removeQueueKeys(this.config.redisUrl, this.config.queuePrefix);
    }
    await dropTestDatabase(this.databaseName);
  }
}
