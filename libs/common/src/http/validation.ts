import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/** How many offending fields a validation message names before it says how many more there are. */
export const MAX_LISTED_VALIDATION_ERRORS = 10;

/**
 * Global validation: unknown properties are rejected, types transformed, and the 400 message
 * names the offending fields (`title: must be shorter than or equal to 50 characters`): the
 * first ten, then `and N more`, so the error stays small whatever the body holds.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
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
