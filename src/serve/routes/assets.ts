/**
 * The files every page loads, public (the login page needs them too) and cached for an hour: the
 * stylesheet, the browser script and uPlot (from the installation's own node_modules: nothing is
 * loaded from the internet).
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONSOLE_CSS } from '../assets/console-css.js';
import { CONSOLE_SCRIPT } from '../assets/console-script.js';

const require = createRequire(import.meta.url);
const uplotFile = (name: string): Buffer => readFileSync(require.resolve(`uplot/dist/${name}`));

export function assetRoutes(app: FastifyInstance): void {
  const asset = (type: string, body: string | Buffer) => async (_r: unknown, reply: FastifyReply) =>
    reply.type(type).header('cache-control', 'public, max-age=3600').send(body);
  const publicAsset = { config: { access: 'public' as const }, schema: { hide: true } };
  app.get('/favicon.ico', publicAsset, async (_r, reply) => reply.code(204).send());
  app.get('/assets/console.css', publicAsset, asset('text/css; charset=utf-8', CONSOLE_CSS));
  app.get(
    '/assets/console.js',
    publicAsset,
    asset('text/javascript; charset=utf-8', CONSOLE_SCRIPT),
  );
  app.get(
    '/assets/uplot.js',
    publicAsset,
    asset('text/javascript; charset=utf-8', uplotFile('uPlot.iife.min.js')),
  );
  app.get(
    '/assets/uplot.css',
    publicAsset,
    asset('text/css; charset=utf-8', uplotFile('uPlot.min.css')),
  );
}
