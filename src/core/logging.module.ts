import { randomUUID } from 'node:crypto';
import { Module, RequestMethod } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { APP_CONFIG, AppConfig } from '@app/common';
import { redactUrl } from './logging/redact-url';

/**
 * JSON logs. Each request gets an id (the caller's `X-Request-Id` when it sends a sane one),
 * echoed in the response. Only method, path and status are logged: never headers, bodies or
 * query strings, and the secret segment of credential-bearing paths (file keys, PDF tokens,
 * link-invite ids) is replaced by `[redacted]`, so tokens and credentials cannot end up in logs.
 */
@Module({
  imports: [
    LoggerModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => ({
        // Nest 11 route syntax for "every route" (the library's default '*' is the legacy form).
        forRoutes: [{ path: '{*path}', method: RequestMethod.ALL }],
        pinoHttp: {
          level: config.logLevel,
          genReqId: (req, res) => {
            const incoming = req.headers['x-request-id'];
            const id = typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
            res.setHeader('X-Request-Id', id);
            return id;
          },
          serializers: {
            req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: redactUrl(req.url) }),
            res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
          },
          redact: ['req.headers', 'res.headers'],
          customProps: () => ({ service: 'api' }),
        },
      }),
    }),
  ],
})
export class LoggingModule {}
