import { DomainErrorKind } from './domain-errors';

/** The single place where a domain error kind becomes an HTTP status. */
export const STATUS_BY_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'precondition-failed': 412,
  locked: 423,
  'too-large': 413,
  unavailable: 503,
  'too-many-requests': 429,
  'bad-gateway': 502,
};

export interface ErrorBody {
  error: { code: number; message: string };
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error: { code, message } };
}
