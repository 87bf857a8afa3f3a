/**
 * Typed errors thrown by domain entities and application services.
 * They carry no HTTP knowledge; the exception filter maps each kind to a status once.
 */
export type DomainErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'precondition-failed'
  | 'locked'
  | 'too-large'
  | 'unavailable'
  | 'too-many-requests'
  | 'bad-gateway';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  /** When set, the client may retry after this many seconds (an HTTP `Retry-After`). */
  retryAfterSeconds?: number;
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidError extends DomainError {
  readonly kind = 'invalid';
}

export class UnauthenticatedError extends DomainError {
  readonly kind = 'unauthenticated';
}

export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden';
}

export class NotFoundError extends DomainError {
  readonly kind = 'not-found';
  static of(resource: string, id?: string): NotFoundError {
    return new NotFoundError(id ? `${resource} "${id}" not found` : `${resource} not found`);
  }
}

export class ConflictError extends DomainError {
  readonly kind = 'conflict';
}

export class PreconditionFailedError extends DomainError {
  readonly kind = 'precondition-failed';
}

/** The resource refuses changes in its current state (e.g. a space in `locked` edit mode). */
export class LockedError extends DomainError {
  readonly kind = 'locked';
}

export class TooLargeError extends DomainError {
  readonly kind = 'too-large';
}

/** A budget is spent (a 429): `retryAfterSeconds` says when it refills. */
export class TooManyRequestsError extends DomainError {
  readonly kind = 'too-many-requests';
}

/** A capability the server is not configured for, or a service it depends on is down. */
export class UnavailableError extends DomainError {
  readonly kind = 'unavailable';

  /** A dependency that is away for now (not a missing capability): retry after a few seconds. */
  static outage(message: string, retryAfterSeconds = 5): UnavailableError {
    const error = new UnavailableError(message);
    error.retryAfterSeconds = retryAfterSeconds;
    return error;
  }
}

/** A service we called on the caller's behalf (an integration's) failed or answered what we cannot use. */
export class BadGatewayError extends DomainError {
  readonly kind = 'bad-gateway';
}
