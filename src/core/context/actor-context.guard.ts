import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HandlerMemo } from '@app/common';
import type { NextFunction, Request, Response } from 'express';
import { ActorContext, ActorContexts } from './actor-context';

const OPERATION = 'swagger/apiOperation';

/**
 * Express middleware, mounted after the body parser (whose stream callbacks would otherwise run
 * outside the scope): every request's work runs in an ActorContext scope of its own.
 */
export function actorScope(_req: Request, _res: Response, next: NextFunction): void {
  ActorContexts.openScope(next);
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
    ActorContexts.settle(() => describe(request, action));
    return true;
  }

  private actionOf(context: ExecutionContext): string {
    return this.actions.of(context, (handler, controller) => {
      const operation = this.reflector.get<{ operationId?: string } | undefined>(OPERATION, handler);
      return operation?.operationId ?? `${controller.name}.${handler.name}`;
    });
  }
}

function describe(request: Request & { user?: { id: string }; tokenId?: string }, action: string): ActorContext {
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
    reading: request.method === 'GET' || request.method === 'HEAD',
    requestFields: request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? Object.keys(request.body).sort().slice(0, 50) : [],
  };
}
