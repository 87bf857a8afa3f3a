import { Type } from '@nestjs/common';
import { ValidationTypes, getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

export type Schema = Record<string, any>;

/**
 * The constraints the global ValidationPipe enforces, read from a DTO's class-validator metadata, so the
 * served document cannot call optional what the server requires, or accept what it refuses. Decorators
 * written for the document (`@ApiProperty` descriptions, defaults, shapes of custom validators) are kept.
 */
export function constraintsOf(dto: Type<unknown>): { properties: Record<string, Schema>; required: string[] } {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byProperty = new Map<string, ValidationMetadata[]>();
  for (const meta of metadata) byProperty.set(meta.propertyName, [...(byProperty.get(meta.propertyName) ?? []), meta]);
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [name, metas] of byProperty) {
    // `@IsOptional()`/`@Omittable()` skip an absent value; a `@ValidateIf` that still validates it when the
    // rest of the body is empty (e.g. "role unless space or collection") makes the property required.
    const optional = metas.some((m) => m.type === ValidationTypes.CONDITIONAL_VALIDATION && !validatesWhenAbsent(m));
    if (!optional && metas.some((m) => m.type !== ValidationTypes.WHITELIST)) required.push(name);
    properties[name] = propertySchema(dto, name, metas);
  }
  return { properties, required };
}

function validatesWhenAbsent(meta: ValidationMetadata): boolean {
  const condition = meta.constraints?.[0];
  if (typeof condition !== 'function') return false;
  try {
    return Boolean(condition({}, undefined));
  } catch {
    return false;
  }
}

function propertySchema(dto: Type<unknown>, name: string, metas: ValidationMetadata[]): Schema {
  const own: Schema = {};
  const items: Schema = {};
  for (const meta of metas) {
    const target = meta.each ? items : own;
    if (meta.each) own.type ??= 'array';
    if (meta.type === ValidationTypes.NESTED_VALIDATION) {
      const nested = nestedType(dto, name);
      if (nested) Object.assign(meta.each || own.type === 'array' ? items : own, { 'x-dto': nested });
      continue;
    }
    if (meta.type === ValidationTypes.CUSTOM_VALIDATION && meta.name) apply(target, meta.name, meta.constraints ?? []);
  }
  if (Object.keys(items).length > 0) own.items = items;
  return own;
}

// class-transformer keeps `@Type()` targets in a storage its package does not type.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const transformerStorage = require('class-transformer/cjs/storage').defaultMetadataStorage as {
  findTypeMetadata(target: unknown, property: string): { typeFunction?: () => unknown } | undefined;
};

function nestedType(dto: Type<unknown>, name: string): Type<unknown> | undefined {
  const declared = transformerStorage.findTypeMetadata(dto, name)?.typeFunction?.();
  return (declared ?? undefined) as Type<unknown> | undefined;
}

/** One class-validator rule as JSON Schema keywords (OpenAPI 3.0 dialect). */
function apply(schema: Schema, rule: string, c: any[]): void {
  switch (rule) {
    case 'isString':
      schema.type = 'string';
      break;
    case 'isBoolean':
      schema.type = 'boolean';
      break;
    case 'isInt':
      schema.type = 'integer';
      break;
    case 'isNumber':
      schema.type = 'number';
      break;
    case 'isArray':
      schema.type = 'array';
      break;
    case 'isObject':
      schema.type = 'object';
      break;
    case 'isNotEmptyObject':
      schema.type = 'object';
      schema.minProperties = 1;
      break;
    case 'isIn':
      schema.enum = [...c[0]];
      break;
    case 'isEnum':
      schema.enum = Object.values(c[0]);
      break;
    case 'equals':
      schema.enum = [c[0]];
      break;
    case 'minLength':
      schema.minLength = c[0];
      break;
    case 'maxLength':
      schema.maxLength = c[0];
      break;
    case 'isLength':
      schema.minLength = c[0];
      if (c[1] !== undefined) schema.maxLength = c[1];
      break;
    case 'isNotEmpty':
      schema.minLength ??= 1;
      break;
    case 'matches':
      schema.pattern = c[0] instanceof RegExp ? c[0].source : String(c[0]);
      break;
    case 'min':
      schema.minimum = c[0];
      break;
    case 'max':
      schema.maximum = c[0];
      break;
    case 'isPositive':
      schema.minimum = 0;
      schema.exclusiveMinimum = true;
      break;
    case 'arrayMinSize':
      schema.minItems = c[0];
      break;
    case 'arrayNotEmpty':
      schema.minItems ??= 1;
      break;
    case 'arrayMaxSize':
      schema.maxItems = c[0];
      break;
    case 'arrayUnique':
      schema.uniqueItems = true;
      break;
    case 'isEmail':
      schema.type = 'string';
      schema.format = 'email';
      break;
    case 'isUrl':
      schema.type = 'string';
      schema.format = 'uri';
      break;
    case 'isUuid':
      schema.type = 'string';
      schema.format = 'uuid';
      break;
    default:
      // Custom rules (IsContentPosition, IsCommentBody...) keep the shape their @ApiProperty declares.
      break;
  }
}

const SHAPE_KEYS = ['$ref', 'oneOf', 'anyOf', 'allOf'];

/**
 * Merges the enforced constraints into a schema Swagger generated for the same DTO: constraint keywords
 * come from validation (the truth), descriptions and defaults from the decorators. `resolveDto` turns
 * a nested DTO into its schema.
 */
export function mergeConstraints(target: Schema, derived: Schema, resolveDto: (dto: Type<unknown>) => Schema): void {
  const { 'x-dto': dto, items, ...keywords } = derived;
  const hasShape = SHAPE_KEYS.some((key) => key in target);
  for (const [key, value] of Object.entries(keywords)) {
    if (key === 'type' && hasShape) continue;
    target[key] = value;
  }
  if (target.enum && target.type === undefined && !hasShape) target.type = typeof target.enum[0] === 'boolean' ? 'boolean' : 'string';
  if (dto && !hasShape && !target.properties) Object.assign(target, resolveDto(dto as Type<unknown>));
  if (items) {
    target.items ??= {};
    mergeConstraints(target.items, items, resolveDto);
  }
}
