/**
 * The console's pages, rendered on the server from the same readers as the JSON API: each page's
 * module (pages/*-page.ts) registers its own route and the files it links to (run reports, the
 * dead-letter CSV, built from Redis: a console on another machine than the workers has them too).
 */
import type { FastifyInstance } from 'fastify';
import { registerAuditPage } from '../pages/audit-page.js';
import { registerDeadLetterPage } from '../pages/dead-letter-page.js';
import { registerDeadLettersPage } from '../pages/dead-letters-page.js';
import { registerEntitiesPage } from '../pages/entities-page.js';
import { registerOverviewPage } from '../pages/overview-page.js';
import { registerPipelinePage } from '../pages/pipeline-page.js';
import { registerRunPage } from '../pages/run-page.js';
import { registerRunsPage } from '../pages/runs-page.js';
import type { ServeContext } from '../serve-context.js';
import { assetRoutes } from './assets.js';

export function pageRoutes(app: FastifyInstance, ctx: ServeContext): void {
  registerOverviewPage(app, ctx);
  registerRunsPage(app, ctx);
  registerRunPage(app, ctx);
  registerDeadLettersPage(app, ctx);
  registerDeadLetterPage(app, ctx);
  registerPipelinePage(app, ctx);
  registerEntitiesPage(app, ctx);
  registerAuditPage(app, ctx);
  assetRoutes(app);
}
