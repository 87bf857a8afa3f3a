import { INestApplication } from '@nestjs/common';
import { NestExpressApplication } from '@nestjs/platform-express';
import type { Request, Response } from 'express';
import { AppConfig } from '@app/common';
import { httpDuration, registry } from './metrics';
import { metricsAuthorized } from './metrics-access';

/**
 * Times every request by route template (never the raw path, whose ids would explode the label
 * set) and serves GET /metrics to the holder of METRICS_TOKEN. Without a token /metrics does not
 * exist (404), so nothing is public by default.
 */
export function mountMetrics(app: INestApplication, config: AppConfig): void {
  const express = app as NestExpressApplication;
  express.use((req: Request, res: Response, next: () => void) => {
    const started = performance.now();
    res.on('finish', () => {
      const template = (req as Request & { route?: { path?: string } }).route?.path;
      const route = template ? `${req.baseUrl ?? ''}${template}` : 'unmatched';
      httpDuration.observe(req.method, route, res.statusCode, (performance.now() - started) / 1000);
    });
    next();
  });
  express.use('/metrics', async (req: Request, res: Response, next: () => void) => {
    if (req.method !== 'GET' || !config.metricsToken) return next();
    if (!metricsAuthorized(req.headers.authorization, config.metricsToken)) {
      res.status(401).json({ error: { code: 401, message: 'Metrics need the METRICS_TOKEN bearer token' } });
      return;
    }
    res.type(registry.contentType).send(await registry.metrics());
  });
}
