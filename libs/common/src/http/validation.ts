import { BadRequestException, ValidationError, ValidationPipe } from '@nestjs/common';

/**
 * Global validation: unknown properties are rejected, types transformed, and the 400 message
 * names every offending field (`title: must be shorter than or equal to 50 characters`).
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    exceptionFactory: (errors) => new BadRequestException(describe(errors).join('; ')),
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
