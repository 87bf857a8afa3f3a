import type { Request, Response } from 'express';
import { AppConfig, MiddlewareChain } from '@app/common';
import { httpDuration, registry } from './metrics';
import { metricsAuthorized } from './metrics-access';

/**
 * Times a request by its route template (never the raw path, whose ids would explode the label
 * set). The access log calls it once the response is sent, from its one listener per response.
 */
export function recordRequestDuration(req: Request, res: Response, seconds: number): void {
  const template = (req as Request & { route?: { path?: string } }).route?.path;
  const route = template ? `${req.baseUrl ?? ''}${template}` : 'unmatched';
  httpDuration.observe(req.method, route, res.statusCode, seconds);
}

/** GET /metrics for the holder of METRICS_TOKEN. Without a token /metrics does not exist (404), so nothing is public by default. */
export function mountMetrics(chain: MiddlewareChain, config: AppConfig): void {
  chain.use('/metrics', async (req: Request, res: Response, next: () => void) => {
    if (req.method !== 'GET' || !config.metricsToken) return next();
    if (!metricsAuthorized(req.headers.authorization, config.metricsToken)) {
      res.status(401).json({ error: { code: 401, message: 'Metrics need the METRICS_TOKEN bearer token' } });
      return;
    }
    res.type(registry.contentType).send(await registry.metrics());
  });
}
