/**
 * Marks a body DTO whose use case refuses `{}` ("at least one of ... is required"); the served OpenAPI
 * document says so with `minProperties: 1`. The check itself stays in the use case.
 */
export const REFUSES_EMPTY_BODY = 'openapi:refuses-empty-body';

export const RefusesEmptyBody = (): ClassDecorator => (target) => Reflect.defineMetadata(REFUSES_EMPTY_BODY, true, target);
