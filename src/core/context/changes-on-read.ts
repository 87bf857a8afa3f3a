import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { HandlerMemo } from '@app/common';
import { from, lastValueFrom, Observable } from 'rxjs';
import { ActorContexts } from './actor-context';
import { describeRequest, operationOf } from './actor-context.guard';

/**
 * Runs a GET handler that may change something (a key generated on first read) in an ActorContext
 * scope of its own, so the audit log and the outbox name its caller. Reads open no scope otherwise
 * (see `actorScope`); this interceptor is on the few handlers that need one, never global.
 */
@Injectable()
export class ChangesOnReadInterceptor implements NestInterceptor {
  private readonly actions = new HandlerMemo<string>();

  constructor(private readonly reflector: Reflector) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const action = this.actions.of(context, (handler, controller) => operationOf(this.reflector, handler, controller));
    const described = describeRequest(context.getArgByIndex(0), action);
    // The handler starts inside the scope (Nest binds it to the context it is asked for in), and
    // the scope is held until it has answered.
    return from(ActorContexts.run(described, () => lastValueFrom(next.handle(), { defaultValue: undefined })));
  }
}

/** Marks a GET handler that may write: its changes are audited under its caller, as any write's. */
export const ChangesOnRead = () => applyDecorators(UseInterceptors(ChangesOnReadInterceptor));
