import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig } from '@app/common';

const DOCKER = join(__dirname, '..', 'docker');

interface Service {
  profiles?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string; required?: boolean }> | string[];
  command?: string[];
  volumes?: string[];
}

/** Compose's own interpolation, for what the file uses: `${NAME:-default}`, `${NAME}` and `$$`. */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\$|\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (whole, name: string | undefined, kind: string | undefined, rest: string | undefined) => {
    if (whole === '$$') return '$';
    const value = env[name!];
    if (kind === '-') return value ? value : rest ?? '';
    if (kind === '?' && !value) throw new Error(`compose would stop: ${name} ${rest}`);
    return value ?? '';
  });
}

function envFile(name: string): Record<string, string> {
  return Object.fromEntries(
    readFileSync(join(DOCKER, name), 'utf8')
      .split('\n')
      .filter((line) => /^[A-Z0-9_]+=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

function services(env: Record<string, string>): Record<string, Service> {
  const all = (parse(interpolate(readFileSync(join(DOCKER, 'compose.yml'), 'utf8'), env), { merge: true }) as { services: Record<string, Service> }).services;
  // `KEY: ${UNSET:-}` reads as null in YAML; compose passes it to the container as an empty string.
  for (const service of Object.values(all)) {
    for (const [key, value] of Object.entries(service.environment ?? {})) if (value === null) service.environment![key] = '';
  }
  return all;
}

/**
 * Docker cannot run here, so the compose file is read as compose reads it: the scale profile with
 * docker/scale.env puts every API and worker on MinIO, the Redis Cluster and PgBouncer it starts,
 * and each process's settings pass our own configuration check; without it, the single-node defaults.
 */
describe('docker/compose.yml', () => {
  const SECRETS = { SECRETS_KEY: Buffer.alloc(32, 1).toString('base64') };
  const processes = ['api', 'worker', 'api-a', 'api-b', 'worker-a', 'worker-b'];

  it('puts every process of the scale profile on MinIO, a three-node Redis Cluster and PgBouncer', () => {
    const all = services({ ...SECRETS, ...envFile('scale.env') });
    const scale = Object.keys(all).filter((name) => all[name].profiles?.includes('scale'));
    expect(scale).toEqual(expect.arrayContaining(['minio', 'minio-init', 'redis-1', 'redis-2', 'redis-3', 'redis-cluster-init', 'pgbouncer', 'proxy']));
    for (const name of processes) {
      const config = loadConfig({ ...all[name].environment });
      expect(config.filesBackend).toBe('s3');
      expect(new URL(config.s3.endpoint!).hostname).toBe('minio');
      expect(config.s3).toMatchObject({ bucket: 'docs-files', forcePathStyle: true });
      expect(config.redisCluster?.nodes.map((node) => node.host)).toEqual(['redis-1', 'redis-2', 'redis-3']);
      expect(new URL(config.databaseUrl).hostname).toBe('pgbouncer');
      expect(new URL(config.databaseDirectUrl).hostname).toBe('postgres');
      expect(config.dbPreparedStatements).toBe(false);
      expect(config.jobsBackend).toBe('redis');
    }
    // Each cluster node is a cluster node keeping an fsync'd append-only file; the init joins all three.
    for (const node of ['redis-1', 'redis-2', 'redis-3']) {
      expect(all[node].command).toEqual(expect.arrayContaining(['--cluster-enabled', 'yes', '--appendfsync', 'always']));
    }
    expect(JSON.stringify(all['redis-cluster-init'])).toMatch(/--cluster create .*redis-1.*redis-2.*redis-3/);
    expect(all.pgbouncer.environment).toMatchObject({ POOL_MODE: 'transaction' });
    expect(JSON.stringify(all['minio-init'])).toContain('mc mb -p local/$S3_BUCKET');
    // The first API waits for what the profile starts, when it starts it.
    expect(all.api.depends_on).toMatchObject({ pgbouncer: { required: false }, 'redis-cluster-init': { required: false }, 'minio-init': { required: false } });
  });

  it('keeps the single-node defaults without scale.env: local files, one Redis, PostgreSQL direct', () => {
    const all = services(SECRETS);
    for (const name of processes) {
      const config = loadConfig({ ...all[name].environment });
      expect(config.filesBackend).toBe('local');
      expect(config.redisCluster).toBeUndefined();
      expect(new URL(config.redisUrl).hostname).toBe('redis');
      expect(config.databaseUrl).toBe(config.databaseDirectUrl);
      expect(config.dbPreparedStatements).toBe(true);
    }
    expect(all.api.volumes).toContain('files:/app/var/files');
    expect(all.worker.volumes).toContain('files:/app/var/files');
  });
});
