import { Server, createServer } from 'node:http';
import { AppConfig } from '@app/common';
import { registry } from './metrics';
import { metricsAuthorized } from './metrics-access';

/** The worker has no HTTP API; with METRICS_PORT and METRICS_TOKEN set it serves GET /metrics alone. */
export function serveWorkerMetrics(config: AppConfig): Server | undefined {
  if (!config.metricsPort || !config.metricsToken) return undefined;
  const token = config.metricsToken;
  const server = createServer(async (req, res) => {
    if (req.method !== 'GET' || req.url?.split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 404, message: 'Not found' } }));
      return;
    }
    if (!metricsAuthorized(req.headers.authorization, token)) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: 401, message: 'Metrics need the METRICS_TOKEN bearer token' } }));
      return;
    }
    res.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics());
  });
  server.listen(config.metricsPort);
  server.unref();
  return server;
}
