/**
 * The console in a real browser (Chromium, playwright-core) against real Redis, a worker and the
 * simulator over TCP: an operator logs in, sees a run appear and finish without reloading, opens
 * its dead letter, edits the payload and replays it (the simulator then holds the fixed price),
 * and imports a store list through the upload form; a viewer sees no replay button and is
 * refused when it tries anyway.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { buildServer } from '../../src/serve/server.js';
import { launchBrowser } from '../helpers/browser.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { consoleTestConfig, itemRow, OPERATOR, VIEWER, writeItems } from './console-fixtures.js';

const h = useDeliveryHarness('console-browser', { seed: 61, faults: { latency: [10, 30] } });
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;
let browser: Browser;
let itemsFile: string;

beforeAll(async () => {
  config = consoleTestConfig(h);
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  const rows = Array.from({ length: 120 }, (_, i) => itemRow(`A${1000 + i}`, '100,00'));
  itemsFile = writeItems(join(h.dir, 'items.csv'), [
    ...rows,
    itemRow('A200', '-12,00'),
    itemRow('A300', '-13,00'),
  ]);
  app = await buildServer({ config, redis: h.redis, logger: quietLogger() });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await worker?.close();
});

async function logIn(token: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${url}/runs`);
  expect(new URL(page.url()).pathname).toBe('/login');
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${url}/runs`), page.click('button[type=submit]')]);
  return page;
}

it('logs an operator in with an HttpOnly SameSite=Strict session cookie', async () => {
  const page = await logIn(OPERATOR);
  const [cookie] = await page.context().cookies();
  expect(cookie).toMatchObject({ name: 'ferry_session', httpOnly: true, sameSite: 'Strict' });
  expect(cookie!.value).not.toContain(OPERATOR);
  expect(await page.textContent('header')).toContain('alice (operator)');
  await page.context().close();
});

it('shows a run appear and finish live, and replays its dead letter with an edited payload', async () => {
  const page = await logIn(OPERATOR);
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: itemsFile },
  });
  // No navigation from here: the page refreshes itself.
  const line = page.locator('tr', { has: page.locator(`a[href="/runs/${runId}"]`) });
  await line.waitFor({ timeout: 15_000 });
  await line.locator('.badge.partial').waitFor({ timeout: 30_000 });
  expect(await line.locator('td.num b').textContent()).toBe('2');

  await line.locator(`a[href="/runs/${runId}"]`).click();
  await page.waitForURL(`${url}/runs/${runId}`);
  expect(await page.locator('h1').textContent()).toContain('partial');
  const deadLetters = page.locator('a[href^="/dead-letters/"]');
  expect(await deadLetters.count()).toBe(2);

  await page.goto(`${url}/dead-letters?key=A200`);
  await page.locator('a[href^="/dead-letters/d"]').first().click();
  const editor = page.locator('textarea#payload');
  const text = await editor.inputValue();
  expect(text).toContain('-12.00');
  await editor.fill(text.replace('-12.00', '12.00'));
  await page.click('text=Replay with this payload');
  await page.locator('[data-flash].ok').waitFor({ timeout: 20_000 });
  expect(await page.textContent('[data-flash]')).toContain('1 delivered');

  const prices = (await (await fetch(`${h.sim.url}/__sim/state/prices`)).json()) as unknown[];
  expect(JSON.stringify(prices)).toMatch(/"A200".*"12\.00"|"12\.00".*"A200"/);
  await page.context().close();
});

it('imports a store list through the upload form and follows it to its end', async () => {
  const page = await logIn(OPERATOR);
  await page.goto(`${url}/pipelines/stores`);
  const file = join(h.dir, 'stores.csv');
  writeFileSync(
    file,
    'Store No.,Name,Address,Post Code,City,Country,Phone,E-Mail,Web URL,Open\n' +
      'S001,Oslo Sentrum,Karl Johans gate 1,0154,Oslo,no,,oslo@example.com,,Yes\n' +
      'S002,Bergen Bryggen,Bryggen 2,5003,Bergen,no,,bergen@example.com,,Yes\n',
  );
  await page.setInputFiles('input[type=file]', file);
  await page.click('form[data-upload] button');
  const result = page.locator('[data-flash].notice');
  await result.waitFor({ timeout: 15_000 });
  expect(await result.textContent()).toContain('Import started');
  await result.locator('a').click();
  await page.locator('h1 .badge.succeeded').waitFor({ timeout: 20_000 });
  const stores = (await (await fetch(`${h.sim.url}/__sim/state/stores`)).json()) as unknown[];
  expect(JSON.stringify(stores)).toContain('Oslo Sentrum');
  expect(await page.innerText('main')).toContain('by http (alice)');
  await page.context().close();
});

it('gives a viewer no replay, and refuses one it sends anyway', async () => {
  const page = await logIn(VIEWER);
  await page.goto(`${url}/dead-letters?key=A300`);
  expect(await page.locator('main button[data-post]').count()).toBe(0);
  await page.locator('a[href^="/dead-letters/d"]').first().click();
  expect(await page.locator('text=Replay with this payload').count()).toBe(0);
  expect(await page.locator('textarea#payload').getAttribute('readonly')).not.toBeNull();
  // In the page (a string: the project's types have no DOM), with the session's CSRF token.
  const status = await page.evaluate(`(async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const path = location.pathname.replace('/dead-letters/', '/api/dead-letters/') + '/replay';
    return (await fetch(path, { method: 'POST', headers: { 'x-csrf-token': csrf } })).status;
  })()`);
  expect(status).toBe(403);
  await page.goto(`${url}/queues`);
  const board = await page.evaluate(`fetch('/queues/api/queues').then((r) => r.json())`);
  const queues = (board as { queues: Array<{ readOnlyMode: boolean }> }).queues;
  expect(queues.length).toBeGreaterThan(0);
  expect(queues.every((q) => q.readOnlyMode)).toBe(true);
  await page.context().close();
});

it('shows the deletes the guard stopped and lets an operator allow them once', async () => {
  // A shorter export: 60 of the 120 products are gone from it.
  const rows = Array.from({ length: 60 }, (_, i) => itemRow(`A${1000 + i}`, '100,00'));
  const short = writeItems(join(h.dir, 'items-short.csv'), [
    ...rows,
    itemRow('A200', '12,00'),
    itemRow('A300', '-13,00'),
  ]);
  const stop = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file: short },
  }).catch((error: unknown) => error as { code: string; details: { runId: string } });
  expect(stop).toMatchObject({ code: 'FERRY_MASS_DELETE_GUARD' });
  const stoppedId = (stop as { details: { runId: string } }).details.runId;

  const viewer = await logIn(VIEWER);
  await viewer.goto(`${url}/runs/${stoppedId}`);
  expect(await viewer.innerText('main')).toContain('no longer holds 60 of the');
  expect(await viewer.locator('main button[data-post]').count()).toBe(0);
  await viewer.context().close();

  const page = await logIn(OPERATOR);
  await page.goto(`${url}/runs/${stoppedId}`);
  expect(await page.locator('main a.mono').first().textContent()).toMatch(/^A1\d{3}$/);
  await Promise.all([
    page.waitForURL((u) => u.pathname.startsWith('/runs/') && !u.pathname.endsWith(stoppedId)),
    page.click('text=Allow these 60 deletes once'),
  ]);
  await page.locator('h1 .badge.partial, h1 .badge.succeeded').waitFor({ timeout: 30_000 });
  const products = (await (await fetch(`${h.sim.url}/__sim/state/products`)).json()) as Array<{
    externalId: string;
  }>;
  expect(products.some((p) => p.externalId === 'A1100')).toBe(false);
  expect(products.some((p) => p.externalId === 'A1010')).toBe(true);
  await page.goto(`${url}/runs/${stoppedId}`);
  expect(await page.innerText('main')).toContain('Allowed once by alice');
  const again = await fetch(`${url}/api/runs/${stoppedId}/allow-deletes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR}` },
  });
  expect(again.status).toBe(400);
  expect(((await again.json()) as { error: { message: string } }).error.message).toContain(
    'already allowed once',
  );
  await page.context().close();
});
