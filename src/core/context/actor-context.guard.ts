import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HandlerMemo } from '@app/common';
import type { NextFunction, Request, Response } from 'express';
import { ActorContext, ActorContexts, SCOPE_LINGER_MS } from './actor-context';

const OPERATION = 'swagger/apiOperation';

/**
 * How long an aborted write request's scope stays counted: its handler may still be running (the
 * client left, the server did not stop), and nothing tells when it ends.
 */
export const ABORTED_SCOPE_LINGER_MS = 5 * 60_000;

/**
 * Express middleware, mounted after the body parser (whose stream callbacks would otherwise run
 * outside the scope): every request that may change something runs in an ActorContext scope of its
 * own, held until its response is done. A GET or HEAD opens none: it changes nothing a caller
 * answers for, and without a scope in flight the storage's hooks are off (see `ActorContexts`).
 */
export function actorScope(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'GET' || req.method === 'HEAD') return next();
  let release: ((lingerMs: number) => void) | undefined;
  res.once('close', () => release?.(res.writableFinished ? SCOPE_LINGER_MS : ABORTED_SCOPE_LINGER_MS));
  release = ActorContexts.openScope(next);
}

/**
 * Names the ActorContext of an API request once the caller is known (described when first used:
 * a read that writes nothing never needs its address parsed or its path ids listed). A guard, registered after the
 * bearer guard, rather than an interceptor: an interceptor wraps every handler in an rxjs pipeline
 * and two AsyncResource bindings per request, which `GET /v1/spaces/{id}` profiles showed as a few
 * percent of its CPU, for a value that only needs to be set once before the handler runs.
 */
@Injectable()
export class ActorContextGuard implements CanActivate {
  /** Each handler's operation name, read from its metadata once. */
  private readonly actions = new HandlerMemo<string>();

  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const request = context.getArgByIndex(0);
    const action = this.actionOf(context);
    ActorContexts.settle(() => describeRequest(request, action));
    return true;
  }

  private actionOf(context: ExecutionContext): string {
    return this.actions.of(context, (handler, controller) => operationOf(this.reflector, handler, controller));
  }
}

/** A handler's operation name: its OpenAPI operationId, else `Controller.method`. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function operationOf(reflector: Reflector, handler: Function, controller: { name: string }): string {
  const operation = reflector.get<{ operationId?: string } | undefined>(OPERATION, handler);
  return operation?.operationId ?? `${controller.name}.${handler.name}`;
}

/** The ActorContext of an API request whose caller the guards know. */
export function describeRequest(request: Request & { user?: { id: string }; tokenId?: string }, action: string): ActorContext {
  const params = (request.params ?? {}) as Record<string, string>;
  return {
    actor: request.user ? { type: 'user', userId: request.user.id, tokenId: request.tokenId ?? null } : { type: 'system', job: 'anonymous' },
    action,
    ip: request.ip ?? null,
    userAgent: typeof request.headers?.['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
    organizationId: params.organizationId ?? null,
    pathIds: Object.entries(params)
      .filter(([name]) => /Id$/.test(name))
      .map(([, value]) => value),
    requestFields: request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? Object.keys(request.body).sort().slice(0, 50) : [],
  };
}
