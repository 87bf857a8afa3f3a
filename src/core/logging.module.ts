import { Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import { APP_CONFIG, AppConfig } from '@app/common';

/** The process's one pino logger: Nest's logs (through nestjs-pino) and the access log write to it. */
export const ROOT_LOGGER = Symbol('ROOT_LOGGER');

@Module({
  providers: [{ provide: ROOT_LOGGER, inject: [APP_CONFIG], useFactory: (config: AppConfig) => pino({ level: config.logLevel }) }],
  exports: [ROOT_LOGGER],
})
class RootLoggerModule {}

/**
 * JSON logs. nestjs-pino carries Nest's own logs and registers no request middleware
 * (`useExisting` with no routes): the access log is ours (logging/access-log.ts, mounted first
 * by configureApi), one line per request without a child logger per request.
 */
@Module({
  imports: [
    RootLoggerModule,
    LoggerModule.forRootAsync({
      imports: [RootLoggerModule],
      inject: [ROOT_LOGGER],
      useFactory: (logger: pino.Logger) => ({ pinoHttp: { logger }, useExisting: true, forRoutes: [] }),
    }),
  ],
  exports: [RootLoggerModule],
})
export class LoggingModule {}
