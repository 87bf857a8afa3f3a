import { INestApplication } from '@nestjs/common';
import { AppConfig } from '@app/common';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Lets web pages on the operator's allow-list (`CORS_ORIGINS`) call the API with a bearer token.
 * Origins are matched exactly; any other origin gets no CORS headers, so the browser blocks it.
 * No cookies are involved (tokens travel in `Authorization`), hence no credentials mode.
 */
export function configureCors(app: INestApplication, config: AppConfig): void {
  if (config.corsOrigins.length === 0) return;
  const allowed = new Set(config.corsOrigins);
  app.enableCors({
    origin: (origin: string | undefined, callback: (error: Error | null, allow?: boolean) => void) =>
      callback(null, origin !== undefined && allowed.has(origin)),
    methods: METHODS,
    allowedHeaders: ['Authorization', 'Content-Type'],
    exposedHeaders: ['Location', 'Retry-After', 'ETag'],
    maxAge: 600,
  });
}
