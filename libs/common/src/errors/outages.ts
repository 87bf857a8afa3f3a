/**
 * Errors that mean a dependency (PostgreSQL, Redis) is away rather than that the request or the
 * server is wrong: the client should retry the same request shortly, so they answer 503 with
 * Retry-After instead of 500.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/** PostgreSQL SQLSTATEs of a server going or gone: connection exceptions (class 08), shutdowns, no connection slots. */
const PG_OUTAGE = /^(08...|57P01|57P02|57P03|53300)$/;
const MESSAGES = [
  /^Connection terminated/, // pg: the server went away mid-query
  /timeout exceeded when trying to connect/, // pg-pool: no connection within the pool's wait
  /^Client has encountered a connection error/,
  /Stream isn't writeable and enableOfflineQueue options is false/, // ioredis, while disconnected
  /^Connection is closed\.?$/, // ioredis
  /Reached the max retries per request limit/, // ioredis MaxRetriesPerRequestError
  /CLUSTERDOWN/, // Redis Cluster without a master for a slot
  /Failed to refresh slots cache/, // ioredis Cluster with no node answering
];

/** Seconds a client is told to wait before retrying a request that met an outage. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

export function isDependencyOutage(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 3) return false;
  const { code, message, driverError, cause, name } = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; name?: unknown };
  if (typeof code === 'string' && (NETWORK_CODES.has(code) || PG_OUTAGE.test(code))) return true;
  if (name === 'MaxRetriesPerRequestError' || name === 'ClusterAllFailedError') return true;
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  // TypeORM wraps the driver's error; AggregateError (happy eyeballs) and others carry a cause.
  return isDependencyOutage(driverError, depth + 1) || isDependencyOutage(cause, depth + 1) || (Array.isArray((error as { errors?: unknown }).errors) && (error as { errors: unknown[] }).errors.some((e) => isDependencyOutage(e, depth + 1)));
}
