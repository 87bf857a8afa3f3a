import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { NextFunction, Request, Response } from 'express';
import { Router } from 'express';

/** What this file needs of Express's router layers (express 5, `router` 2). */
interface Layer {
  route?: { path: unknown; _handlesMethod(method: string): boolean };
  handle: unknown;
}
interface ExpressRouter {
  stack: Layer[];
  caseSensitive?: boolean;
  strict?: boolean;
}
type Dispatch = ((req: Request, res: Response, next: NextFunction) => void) & { routeLayers: Layer[] };

/** Characters that make a path segment a pattern (parameters, wildcards, optional groups) in path-to-regexp 8. */
const PATTERN = /[:*{}()[\]+?!\\]/;

/**
 * Express finds a request's route by testing every route in the order they were registered: with
 * about 420 routes, a request for one registered late tests hundreds of patterns first (about
 * 100 µs for the last one, against 7 µs for the 16th, `GET /v1/spaces/{id}`). Once the app is up,
 * this replaces each run of routes (Nest's, and Swagger UI's before it) by one layer that picks, by the request's first
 * two path segments (`/v1/spaces`, `/v1/orgs`), the routes that can match it, in their original
 * order; routes whose first two segments are not plain text (a parameter, a wildcard) are in every
 * group. Two routes in different groups can never match the same path, so the route that answers
 * is the one that answered before; only the search is shorter.
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
  // An OPTIONS request no route takes falls through to what follows (Nest's 404), never to a
  // group's automatic `Allow` answer; so OPTIONS skips the groups, which needs no route to take it.
  if (router.stack.some((layer) => layer.route?._handlesMethod('OPTIONS'))) return;
  // Every run of routes (Swagger UI's, then Nest's), the last first so the earlier indices hold.
  for (const [start, end] of routeRuns(router.stack).reverse()) {
    if (end - start >= 2) router.stack.splice(start, end - start, indexedLayer(router, router.stack.slice(start, end)));
  }
}

/** One layer standing for a run of routes, in their order. */
function indexedLayer(router: ExpressRouter, routes: Layer[]): Layer {
  const fold = (text: string) => (router.caseSensitive ? text : text.toLowerCase());
  const keyed = routes.map((layer) => ({ layer, key: typeof layer.route!.path === 'string' ? routeKey(layer.route!.path as string, fold) : null }));
  const groupOf = (key: string | null) => {
    const group = Router({ caseSensitive: router.caseSensitive, strict: router.strict }) as unknown as ExpressRouter & Dispatch;
    group.stack = keyed.filter((entry) => entry.key === null || entry.key === key).map((entry) => entry.layer);
    return group;
  };
  const groups = new Map<string, ExpressRouter & Dispatch>();
  for (const { key } of keyed) if (key !== null && !groups.has(key)) groups.set(key, groupOf(key));
  const others = groupOf(null);
  // A request no route of the run can match goes straight on.
  const fallback = others.stack.length > 0 ? others : null;
  const dispatch = ((req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return next();
    const group = groups.get(fold(requestKey(req.path))) ?? fallback;
    return group ? group(req, res, next) : next();
  }) as Dispatch;
  dispatch.routeLayers = routes;
  // The layer `use(fn)` makes: it matches every path and leaves the URL as it is.
  const holder = Router() as unknown as ExpressRouter & { use(fn: Dispatch): void };
  holder.use(dispatch);
  return holder.stack[0];
}

/** Every route layer the app serves, in order, whether or not indexRoutes has grouped them. */
export function routeLayers(router: ExpressRouter): Layer[] {
  return router.stack.flatMap((layer) => (layer.route ? [layer] : ((layer.handle as Partial<Dispatch>).routeLayers ?? [])));
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

/** Where each run of consecutive route layers starts and ends. */
function routeRuns(stack: Layer[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < stack.length; ) {
    if (!stack[i].route) {
      i++;
      continue;
    }
    let j = i;
    while (j < stack.length && stack[j].route) j++;
    runs.push([i, j]);
    i = j;
  }
  return runs;
}
