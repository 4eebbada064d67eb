/**
 * The queue board (bull-board) at /queues: the delivery lanes and the schedule ticks, job by job.
 * Its routes get the console's roles like any other: reading needs a viewer, any write (retry,
 * remove, pause, clean) an operator, and with the session cookie such a write must come from the
 * console's own origin (the board's script cannot send the CSRF token). A viewer's board is shown
 * read-only, and every operator write through it goes into the audit trail. Its page loads
 * nothing from outside the installation: the UI's link to Google's web fonts is taken out (it
 * falls back to the system's sans-serif and monospace fonts); and it gets a link back to the
 * console in a corner (the board's own "Console" link hides in a menu).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { recordAudit } from '../runs/index.js';
import type { ServeContext } from './serve-context.js';

export const BOARD_PATH = '/queues';
const READS = new Set(['GET', 'HEAD']);

export async function mountQueueBoard(
  app: FastifyInstance,
  ctx: ServeContext,
  queues: readonly Queue[],
): Promise<void> {
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(BOARD_PATH);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q)),
    serverAdapter,
    options: {
      uiConfig: { boardTitle: 'Ferry queues', miscLinks: [{ text: 'Console', url: '/' }] },
    },
  });
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      const methods = ([] as string[]).concat(route.method);
      const reads = methods.every((m) => READS.has(m));
      route.config = {
        ...route.config,
        access: reads ? 'viewer' : 'operator',
        // Every platform's jobs: a token scoped to platforms gets 404.
        shared: true,
        originChecked: true,
        page: reads && !String(route.url).includes('/api/'),
      };
    });
    // The board's UI hides its buttons for a queue in read-only mode: so it is for a viewer.
    scope.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload === 'string' && String(reply.getHeader('content-type')).includes('html')) {
        return boardPage(payload);
      }
      if (request.principal?.role !== 'viewer' || typeof payload !== 'string') return payload;
      if (!request.url.startsWith(`${BOARD_PATH}/api/queues`) || request.method !== 'GET') {
        return payload;
      }
      if (!String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
      const body = JSON.parse(payload) as { queues?: Array<Record<string, unknown>> };
      for (const q of body.queues ?? []) {
        Object.assign(q, { readOnlyMode: true, allowRetries: false, allowCompletedRetries: false });
      }
      return JSON.stringify(body);
    });
    scope.addHook('onResponse', async (request, reply) => {
      if (READS.has(request.method) || reply.statusCode >= 400 || !request.principal) return;
      await recordAudit(ctx.redis, ctx.keys, {
        actor: request.principal.name,
        action: `queues.${request.method.toLowerCase()}`,
        target: request.url.slice(BOARD_PATH.length),
      });
    });
    await scope.register(serverAdapter.registerPlugin(), { prefix: BOARD_PATH });
  });
}

const BACK_LINK =
  '<a id="ferry-console-link" href="/" style="position:fixed;right:16px;bottom:12px;' +
  'z-index:1000;padding:6px 12px;border-radius:4px;background:#1d2330;color:#fff;' +
  'font:14px system-ui,sans-serif;text-decoration:none">← Ferry console</a>';

/**
 * The board's page without its <link>s to other hosts (bull-board's UI asks Google for fonts),
 * with the link back to the console.
 */
export function boardPage(page: string): string {
  return page
    .replace(/<link\b[^>]*\bhref="(?:https?:)?\/\/[^"]*"[^>]*>/gi, '')
    .replace(/<body\b[^>]*>/i, (body) => `${body}${BACK_LINK}`);
}
