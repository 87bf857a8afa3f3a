import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import { StartupError } from './startup-error';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * The logger a process uses until nestjs-pino takes over, and for a failed start: JSON lines in the
 * same shape as the app's logs (never Nest's coloured console text), on stderr, written synchronously
 * so the line is out before `process.exit`.
 */
export class BootstrapLogger implements LoggerService {
  private readonly pino: Pino;

  constructor(service: string) {
    const level = process.env.LOG_LEVEL ?? 'info';
    this.pino = pino(
      { level: level in pino.levels.values || level === 'silent' ? level : 'info', base: { pid: process.pid, service } },
      pino.destination({ fd: 2, sync: true }),
    );
  }

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  /** One line saying why the process cannot start: the variable to fix and the cause, when known. */
  startupFailed(error: Error): void {
    const fields = error instanceof StartupError ? { variable: error.variable, cause: error.causeText } : {};
    this.pino.fatal(fields, error.message);
  }

  // Nest passes (message, context) or, for errors, (message, stack, context).
  private write(level: Level, message: unknown, params: unknown[]): void {
    const context = params.length && typeof params[params.length - 1] === 'string' ? params.pop() : undefined;
    const stack = level === 'error' && typeof params[0] === 'string' ? params[0] : undefined;
    const text = message instanceof Error ? message.message : typeof message === 'string' ? message : JSON.stringify(message);
    this.pino[level]({ context, stack }, text);
  }
}
