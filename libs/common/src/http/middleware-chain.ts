import type { NextFunction, Request, Response } from 'express';

export type Middleware = (req: Request, res: Response, next: NextFunction) => unknown;

/**
 * Middleware that every request passes through, run in order from one Express layer. Express's
 * router spends about half a microsecond per layer a request walks past (path matching, a params
 * object, prefix trimming), and the API's own front matter (access log, headers, metrics, rate
 * limits, parsing, idempotency, request context) was a dozen layers before any route.
 *
 * Semantics kept from Express: `next(error)` skips the rest and hands the error on, a step that
 * throws or returns a rejected promise does the same, and a step may answer without calling `next`.
 * A step mounted under a prefix runs for that path and those below it, matched case-insensitively
 * as Express mounts do; unlike Express, `req.url` is not shortened for it (no step here reads it).
 */
export class MiddlewareChain {
  private readonly steps: Middleware[] = [];

  use(step: Middleware): this;
  use(prefix: string, step: Middleware): this;
  use(prefixOrStep: string | Middleware, step?: Middleware): this {
    if (typeof prefixOrStep === 'function') {
      this.steps.push(prefixOrStep);
      return this;
    }
    const mounted = step!;
    const under = new RegExp(`^${escape(prefixOrStep.replace(/\/+$/, ''))}(?:/|$)`, 'i');
    this.steps.push((req, res, next) => (under.test(req.path) ? mounted(req, res, next) : next()));
    return this;
  }

  /** The one Express middleware that runs every step. */
  handler(): Middleware {
    const steps = [...this.steps];
    return (req, res, done) => {
      let index = 0;
      const next = (error?: unknown): void => {
        // As between Express layers: 'route' only ends a route's handlers, anything else truthy is passed on ('router' included).
        if (error && error !== 'route') return done(error);
        const step = steps[index++];
        if (!step) return done();
        try {
          const result = step(req, res, next);
          if (result instanceof Promise) result.catch(next);
        } catch (thrown) {
          done(thrown);
        }
      };
      next();
    };
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
