import { ArgumentMetadata, BadRequestException, Type, ValidationError, ValidationPipe } from '@nestjs/common';
import { validateSync } from 'class-validator';

/** How many offending fields a validation message names before it says how many more there are. */
export const MAX_LISTED_VALIDATION_ERRORS = 10;

/**
 * Nest's ValidationPipe, with two shortcuts: values it would not validate (primitives, custom
 * decorators) come back without a promise, and a request with no query parameters at all (most
 * reads) gets a fresh instance of its query DTO without a pass through class-transformer and
 * class-validator, when that DTO accepts an empty query (checked once per class).
 */
class QueryShortcutValidationPipe extends ValidationPipe {
  private readonly emptyAccepted = new Map<Type<unknown>, boolean>();

  // Not `async`: what needs no class-validator pass (path ids, the caller, an empty query) is
  // returned as it is, so Nest's pipe chain has no promise of ours to wait for on a plain read.
  override transform(value: unknown, metadata: ArgumentMetadata): any {
    const metatype = metadata.metatype as Type<unknown> | undefined;
    if (!metatype || !this.toValidate(metadata)) return this.transformPrimitive(value, metadata);
    if (metadata.type === 'query' && isEmptyObject(value) && this.acceptsEmpty(metatype)) return new metatype();
    return super.transform(value, metadata);
  }

  private acceptsEmpty(metatype: Type<unknown>): boolean {
    let accepted = this.emptyAccepted.get(metatype);
    if (accepted === undefined) {
      accepted = typeof metatype === 'function' && metatype.prototype !== undefined && ![String, Number, Boolean, Array, Object].includes(metatype as never) && validateSync(new metatype() as object).length === 0;
      this.emptyAccepted.set(metatype, accepted);
    }
    return accepted;
  }
}

function isEmptyObject(value: unknown): boolean {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0;
}

/**
 * Global validation: unknown properties are rejected, types transformed, and the 400 message
 * names the offending fields (`title: must be shorter than or equal to 50 characters`): the
 * first ten, then `and N more`, so the error stays small whatever the body holds.
 */
export function createValidationPipe(): ValidationPipe {
  return new QueryShortcutValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new BadRequestException(summarize(describe(errors))),
  });
}

function describe(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((error) => {
    const path = prefix ? `${prefix}.${error.property}` : error.property;
    const own = Object.values(error.constraints ?? {}).map((m) => `${path}: ${stripProperty(m, error.property)}`);
    return [...own, ...describe(error.children ?? [], path)];
  });
}

function stripProperty(message: string, property: string): string {
  return message.startsWith(property + ' ') ? message.slice(property.length + 1) : message;
}

export function summarize(messages: string[], max = MAX_LISTED_VALIDATION_ERRORS): string {
  if (messages.length <= max) return messages.join('; ');
  return `${messages.slice(0, max).join('; ')}; and ${messages.length - max} more`;
}
