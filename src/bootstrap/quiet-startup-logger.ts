import { LoggerService } from '@nestjs/common';

/** Nest's own start-up chatter: one line per module, controller and route (about 400 before the banner). */
const STARTUP_CONTEXTS = new Set(['InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestFactory', 'NestApplication']);

/**
 * The app's logger with Nest's start-up lines moved to debug, so a start shows what an operator
 * acts on (connections, the port, warnings) and `LOG_LEVEL=debug` still shows every route mapped.
 */
export class QuietStartupLogger implements LoggerService {
  constructor(private readonly inner: LoggerService) {}

  log(message: unknown, ...params: unknown[]): void {
    if (STARTUP_CONTEXTS.has(String(params[params.length - 1]))) this.inner.debug?.(message, ...params);
    else this.inner.log(message, ...params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.inner.error(message, ...params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.inner.warn(message, ...params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.inner.debug?.(message, ...params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.inner.verbose?.(message, ...params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    (this.inner.fatal ?? this.inner.error).call(this.inner, message, ...params);
  }
}
