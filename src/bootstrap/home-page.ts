import type { Request, Response, Router } from 'express';

const LINKS = [
  { rel: 'docs', href: '/docs', title: 'API reference (Swagger UI)' },
  { rel: 'openapi', href: '/openapi.json', title: 'OpenAPI document' },
  { rel: 'api', href: '/v1', title: 'REST API (GitBook API v1; bearer tokens)' },
  { rel: 'health', href: '/health', title: 'Health check' },
  { rel: 'console', href: '/admin', title: "Operator's console (instance administrators)" },
  { rel: 'sites', href: '/sites/{basename}/', title: 'Published sites' },
];

/**
 * `GET /`: where to go from here. Browsers get a small page, other clients JSON. A host a published
 * site claims never gets here: its root is the site's (mounted before this).
 */
export function mountHomePage(into: Router): void {
  into.get('/', (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    if ((req.headers.accept ?? '').includes('text/html')) {
      const items = LINKS.map((l) => (l.href.includes('{') ? `<li>${l.title}: <code>${l.href}</code></li>` : `<li><a href="${l.href}">${l.title}</a></li>`)).join('');
      res.type('html').send(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs Platform</title></head><body><h1>Docs Platform</h1><ul>${items}</ul></body></html>`);
      return;
    }
    res.json({ name: 'Docs Platform', links: Object.fromEntries(LINKS.map((l) => [l.rel, l.href])) });
  });
}
