import { INestApplication, RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { INTEGRATION_SCOPES_ROUTE, PUBLIC_ROUTE, RouteScopes, SITE_TOKEN_ROUTE } from '../../modules/identity/api/auth.decorators';

/** What the OpenAPI post-processing needs to know about one controller method. */
export interface RouteInfo {
  method: string;
  /** OpenAPI-style path without the global prefix, e.g. `/spaces/{spaceId}`. */
  path: string;
  isPublic: boolean;
  /** A published site's reader token may call it (@SiteTokenReadable). */
  siteReadable: boolean;
  /** The integration scopes an installation token needs here (none: not open to those tokens; [] : its own installation). */
  integrationScopes?: readonly string[];
  bodyType?: Type<unknown>;
  queryType?: Type<unknown>;
}

/** Every controller route of the app, read from Nest's metadata (the same the router is built from). */
export function routeInventory(app: INestApplication): RouteInfo[] {
  const routes: RouteInfo[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | undefined;
      if (!controller) continue;
      const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller));
      const prototype = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const subPaths = Reflect.getMetadata(PATH_METADATA, handler);
        if (requestMethod === undefined || subPaths === undefined) continue;
        const isPublic = Boolean(Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller));
        const siteReadable = Boolean(Reflect.getMetadata(SITE_TOKEN_ROUTE, handler) ?? Reflect.getMetadata(SITE_TOKEN_ROUTE, controller));
        const declared = (Reflect.getMetadata(INTEGRATION_SCOPES_ROUTE, handler) ?? Reflect.getMetadata(INTEGRATION_SCOPES_ROUTE, controller)) as RouteScopes | undefined;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number; data?: unknown }>;
        const types = (Reflect.getMetadata('design:paramtypes', prototype, name) ?? []) as Type<unknown>[];
        const argType = (kind: RouteParamtypes) => {
          const entry = Object.entries(args).find(([key, arg]) => key.split(':')[0] === String(kind) && arg.data === undefined);
          const type = entry ? types[entry[1].index] : undefined;
          return type && ![Object, String, Number, Boolean, Array].includes(type as never) ? type : undefined;
        };
        for (const prefix of prefixes) {
          for (const sub of asArray(subPaths)) {
            routes.push({
              method: RequestMethod[requestMethod].toLowerCase(),
              path: toOpenApiPath(`/${prefix}/${sub}`),
              isPublic,
              siteReadable,
              integrationScopes: scopesFor(declared, RequestMethod[requestMethod]),
              bodyType: argType(RouteParamtypes.BODY),
              queryType: argType(RouteParamtypes.QUERY),
            });
          }
        }
      }
    }
  }
  return routes;
}

function asArray(value: unknown): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/** `spaces/:spaceId//x/` -> `/spaces/{spaceId}/x`; `{*path}` and `*path` wildcards become `{path}`. */
export function toOpenApiPath(path: string): string {
  const clean = path
    .split('/')
    .filter(Boolean)
    .map((segment) => segment.replace(/^:(\w+)$/, '{$1}').replace(/^\{\*(\w+)\}$/, '{$1}').replace(/^\*(\w+)$/, '{$1}'))
    .join('/');
  return `/${clean}`;
}

function scopesFor(declared: RouteScopes | undefined, method: string): readonly string[] | undefined {
  if (!declared) return undefined;
  if (declared === 'installation') return [];
  return (method === 'GET' || method === 'HEAD' ? declared.read : declared.write) ?? undefined;
}
