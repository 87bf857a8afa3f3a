import { ValidateIf } from 'class-validator';

/**
 * The property may be left out, but when present it is validated, null included.
 * Use it for optional fields that are not nullable; `@IsOptional()` would let `null` through.
 */
export const Omittable = () => ValidateIf((_object, value) => value !== undefined);
