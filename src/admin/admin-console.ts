import { INestApplication } from '@nestjs/common';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, urlencoded } from 'express';
import type { RequestHandler } from 'express';
import { AppConfig } from '@app/common';
import { JobBackend } from '../jobs/bullmq/job-backend';
import { registeredQueues } from '../jobs/job-registry';
import { IdentityService } from '../modules/identity/application/identity.service';
import { ConsoleSessions } from '../modules/identity/application/console-sessions.service';
import { ADMIN_COOKIE, ConsoleCredential, isConsoleUser, requireInstanceAdmin, sessionCookie } from './admin-auth';
import { loginPage } from './login-page';

const BOARD_PATH = '/admin/queues';
const SESSION_SECONDS = 8 * 60 * 60;

/**
 * The operator's console under /admin: the queue dashboard (Bull Board, on whichever job backend
 * runs) and its sign-in. Plain Express routes rather than Nest controllers: the dashboard is an
 * Express router, and none of it is part of the GitBook API (no /v1 prefix, no contract).
 */
export function mountAdminConsole(app: INestApplication, config: AppConfig, into: Router): void {
  const identity = app.get(IdentityService, { strict: false });
  const sessions = app.get(ConsoleSessions, { strict: false });
  const authenticate = (credential: ConsoleCredential) => ('bearer' in credential ? identity.authenticate(credential.bearer) : sessions.userOf(credential.session));
  const secure = config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const cookie = (value: string, maxAge: number) =>
    `${ADMIN_COOKIE}=${encodeURIComponent(value)}; HttpOnly; SameSite=Strict; Path=/admin; Max-Age=${maxAge}${secure}`;

  const login = Router();
  login.get('/admin', (_req, res) => res.redirect(303, BOARD_PATH));
  login.get('/admin/login', (_req, res) => {
    res.type('html').send(loginPage());
  });
  login.post('/admin/login', urlencoded({ extended: false, limit: '4kb' }), async (req, res, next) => {
    try {
      const token = typeof req.body?.token === 'string' ? req.body.token.trim() : '';
      const found = token ? await identity.authenticateToken(token) : null;
      if (!found || !isConsoleUser(found.user)) {
        const why = !found
          ? 'Unknown token: it does not exist, was revoked or has expired, or its user is disabled.'
          : found.user.organizationScope
            ? "That token is limited to one organization (a single sign-on token): use a full API token."
            : 'That token does not belong to an instance administrator (npm run --silent cli -- users:promote --email ...).';
        res.status(401).type('html').send(loginPage(why));
        return;
      }
      // The cookie holds a session id, never the token: signing out or revoking the token ends it.
      res.setHeader('Set-Cookie', cookie(await sessions.open(found.tokenId, SESSION_SECONDS), SESSION_SECONDS));
      res.redirect(303, BOARD_PATH);
    } catch (error) {
      next(error);
    }
  });
  login.post('/admin/logout', async (req, res, next) => {
    try {
      const session = sessionCookie(req);
      if (session) await sessions.close(session);
      res.setHeader('Set-Cookie', cookie('', 0));
      res.redirect(303, '/admin/login');
    } catch (error) {
      next(error);
    }
  });
  into.use(login);

  // Built on first use, so processes whose console nobody opens hold no extra queue connections.
  let board: RequestHandler | undefined;
  const dashboard: RequestHandler = (req, res, next) => {
    if (!board) {
      const serverAdapter = new ExpressAdapter();
      serverAdapter.setBasePath(BOARD_PATH);
      const backend = app.get(JobBackend, { strict: false });
      createBullBoard({
        queues: registeredQueues().map((queue) => new BullMQAdapter(backend.queue(queue))),
        // @bull-board/express pins its own copy of @bull-board/api; the two agree at run time.
        serverAdapter: serverAdapter as never,
        options: { uiConfig: { boardTitle: 'Jobs' } },
      });
      board = serverAdapter.getRouter() as RequestHandler;
    }
    board(req, res, next);
  };
  into.use(BOARD_PATH, requireInstanceAdmin(authenticate), dashboard);
}
