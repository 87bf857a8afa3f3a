import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';

/** What this file needs of Express's router and its layers (express 5, `router` 2). */
interface Layer {
  route?: { path: unknown; _handlesMethod(method: string): boolean };
}
interface ExpressRouter {
  stack: Layer[];
  caseSensitive?: boolean;
  handle(req: Request, res: Response, done: NextFunction): void;
}

/** Characters that make a path segment a pattern (parameters, wildcards, optional groups) in path-to-regexp 8. */
const PATTERN = /[:*{}()[\]+?!\\]/;

/**
 * Express finds a request's route by testing every route in the order they were registered: with
 * about 420 routes, a request for one registered late tests hundreds of patterns first (about
 * 100 µs for the last one, against 7 µs for the 16th, `GET /v1/spaces/{id}`). Once the app is up,
 * this gives the app's router one view of its stack per first two path segments (`/v1/spaces`,
 * `/v1/orgs`): every middleware layer, and of each run of routes (Swagger UI's, Nest's) only those
 * that can match such a path, in their original order. Routes whose first two segments are not
 * plain text (a parameter, a wildcard) are in every view. Two routes in different views can never
 * match the same path, so the route that answers is the one that answered before; only the search
 * is shorter. The router walks the view with its own loop, as it walks its whole stack: there is no
 * nested router to enter per request.
 */
@Injectable()
export class RouteIndex implements OnApplicationBootstrap {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onApplicationBootstrap(): void {
    const instance = this.adapterHost.httpAdapter?.getInstance?.() as { router?: ExpressRouter } | undefined;
    if (instance?.router) indexRoutes(instance.router);
  }
}

export function indexRoutes(router: ExpressRouter): void {
  // An OPTIONS request no route takes falls through to what follows (Nest's 404), never to the
  // router's automatic `Allow` answer; so OPTIONS walks the whole stack, which needs no route to take it.
  if (router.stack.some((layer) => layer.route?._handlesMethod('OPTIONS'))) return;
  const stack = router.stack;
  const indexedLength = stack.length;
  const fold = (text: string) => (router.caseSensitive ? text : text.toLowerCase());
  const keys = stack.map((layer) => (!layer.route ? undefined : typeof layer.route.path === 'string' ? routeKey(layer.route.path, fold) : null));
  const viewOf = (key: string | null): ExpressRouter => {
    const layers = stack.filter((_layer, i) => keys[i] === undefined || keys[i] === null || keys[i] === key);
    // The router itself, seen through a stack of fewer layers: its handle() reads `this.stack`, and
    // everything else (params, options) from the router.
    return Object.create(router, { stack: { value: layers } }) as ExpressRouter;
  };
  const views = new Map<string, ExpressRouter>();
  for (const key of keys) if (typeof key === 'string' && !views.has(key)) views.set(key, viewOf(key));
  const others = viewOf(null);
  const handle = router.handle;
  router.handle = function handleIndexed(req: Request, res: Response, done: NextFunction): void {
    // Layers added since (an app that registers more routes later) are only in the whole stack.
    if (req.method === 'OPTIONS' || stack.length !== indexedLength) return handle.call(router, req, res, done);
    return handle.call(views.get(fold(requestKey(req.path))) ?? others, req, res, done);
  };
}

/** Every route layer the app serves, in order. */
export function routeLayers(router: ExpressRouter): Layer[] {
  return router.stack.filter((layer) => layer.route);
}

/** The first two segments of a route's path when both are plain text (`/v1/spaces/:id` → `/v1/spaces`), else null. */
function routeKey(path: string, fold: (text: string) => string): string | null {
  const segments = path.split('/').slice(1, 3);
  if (segments.length === 0 || segments.some((segment) => segment === '' || PATTERN.test(segment))) return null;
  return fold(`/${segments.join('/')}`);
}

/** The same two segments of a request's path; a trailing slash is no segment (`/health/` → `/health`). */
function requestKey(path: string): string {
  const second = path.indexOf('/', 1);
  if (second < 0) return path;
  const third = path.indexOf('/', second + 1);
  const key = third < 0 ? path : path.slice(0, third);
  return key.endsWith('/') && key.length > 1 ? key.slice(0, -1) : key;
}
