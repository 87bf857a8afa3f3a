import { CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Observable, map } from 'rxjs';

/** `Prefer: return=minimal` (RFC 7240): the write happens as usual, the answer is a 204 without the representation. */
export function prefersMinimal(header: string | string[] | undefined): boolean {
  const values = Array.isArray(header) ? header : header ? [header] : [];
  return values.some((value) => value.split(',').some((part) => part.trim().toLowerCase() === 'return=minimal'));
}

@Injectable()
export class ReturnPreferenceInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const request = http.getRequest<Request>();
    return next.handle().pipe(
      map((body) => {
        if (!prefersMinimal(request.headers.prefer)) return body;
        const response = http.getResponse<Response>();
        response.status(204).setHeader('Preference-Applied', 'return=minimal');
        return undefined;
      }),
    );
  }
}

/** A write that honours `Prefer: return=minimal`, as GitBook's marked operations do. */
export const HonoursReturnPreference = (what: string) =>
  applyDecorators(
    UseInterceptors(ReturnPreferenceInterceptor),
    ApiHeader({ name: 'Prefer', required: false, enum: ['return=minimal', 'return=representation'], description: '`return=minimal`: answer 204 without the representation' }),
    ApiResponse({ status: 204, description: `${what} without returning its representation (\`Preference-Applied: return=minimal\`)` }),
  );
