import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { Observable } from 'rxjs';
import { ActorContext, ActorContexts } from './actor-context';

const OPERATION = 'swagger/apiOperation';

/**
 * Runs each API handler inside its ActorContext. An interceptor, not a middleware, because it runs
 * after the bearer guard (the caller is known) and after the body was read (stream callbacks
 * would otherwise lose the async context).
 */
@Injectable()
export class ActorContextInterceptor implements NestInterceptor {
  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest();
    const operation = this.reflector.get<{ operationId?: string } | undefined>(OPERATION, context.getHandler());
    const params: Record<string, string> = request.params ?? {};
    const store: ActorContext = {
      actor: request.user ? { type: 'user', userId: request.user.id, tokenId: request.tokenId ?? null } : { type: 'system', job: 'anonymous' },
      action: operation?.operationId ?? `${context.getClass().name}.${context.getHandler().name}`,
      ip: request.ip ?? null,
      userAgent: typeof request.headers?.['user-agent'] === 'string' ? request.headers['user-agent'].slice(0, 300) : null,
      organizationId: params.organizationId ?? null,
      pathIds: Object.entries(params)
        .filter(([name]) => /Id$/.test(name))
        .map(([, value]) => value),
      reading: request.method === 'GET' || request.method === 'HEAD',
      requestFields: request.body && typeof request.body === 'object' && !Array.isArray(request.body) ? Object.keys(request.body).sort().slice(0, 50) : [],
    };
    return new Observable((subscriber) => ActorContexts.run(store, () => next.handle().subscribe(subscriber)));
  }
}
