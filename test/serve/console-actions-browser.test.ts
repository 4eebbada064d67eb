/**
 * Pages that follow the action, in a real browser (Chromium, playwright-core) against real Redis,
 * a worker and the simulator over TCP: an edit the schema refuses says why on the dead letter's
 * page and sends nothing; after a replay the page says it no longer waits (no red badge, no Replay
 * buttons) and a reload says who replayed it instead of a 404;
 * "Replay selected" takes the replayed rows out of the list, unticked; a cancel shows the run's
 * new status at once; pause and resume of a schedule show at once; after an upload the file input
 * is empty and the live refresh goes on; "Run now" starts a run from the pipeline's own file; the
 * runs page filters by status; an unknown address gets an HTML page in a browser and JSON
 * otherwise; the queue board loads nothing from another host and links back to the console.
 * With FERRY_SCREENSHOTS_DIR set, each page is saved there after each action.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { buildServer } from '../../src/serve/server.js';
import { launchBrowser } from '../helpers/browser.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import { consoleTestConfig, itemRow, OPERATOR, writeItems } from './console-fixtures.js';

const h = useDeliveryHarness('console-actions', { seed: 62, faults: { latency: [20, 40] } });
const SHOTS = process.env.FERRY_SCREENSHOTS_DIR;
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;
let browser: Browser;
let firstRun: string;

/** Four products the platform refuses (negative prices), beside twenty it takes. */
const REFUSED = ['B201', 'B202', 'B203', 'B204'];

beforeAll(async () => {
  // The project's pipelines, and the store list on a nightly schedule to pause and resume.
  const pipelines = join(h.dir, 'pipelines');
  cpSync(join(PROJECT_ROOT, 'config/pipelines'), pipelines, { recursive: true });
  const stores = readFileSync(join(pipelines, 'stores.yaml'), 'utf8');
  writeFileSync(
    join(pipelines, 'stores-nightly.yaml'),
    `${stores}\nschedule: { cron: '0 2 * * *', tz: Europe/Oslo }\n`,
  );
  const base = consoleTestConfig(h);
  config = { ...base, pipelines: { ...base.pipelines, dir: pipelines } };
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  const rows = Array.from({ length: 20 }, (_, i) => itemRow(`B${1000 + i}`, '10,00'));
  const file = writeItems(join(h.dir, 'items.csv'), [
    ...rows,
    ...REFUSED.map((k) => itemRow(k, '-1,00')),
  ]);
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
  });
  await followRun(h.redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  firstRun = runId;
  app = await buildServer({ config, redis: h.redis, logger: quietLogger() });
  url = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
  await worker?.close();
});

async function logIn(): Promise<Page> {
  const page = await (
    await browser.newContext({ viewport: { width: 1280, height: 900 } })
  ).newPage();
  page.on('dialog', (dialog) => void dialog.accept());
  await page.goto(`${url}/login`);
  await page.fill('#token', OPERATOR);
  await Promise.all([page.waitForURL(`${url}/`), page.click('button[type=submit]')]);
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

it('takes a replayed dead letter off its page at once, and a reload says who replayed it', async () => {
  const page = await logIn();
  await page.goto(`${url}/dead-letters?key=B201`);
  await page.locator('a[href^="/dead-letters/d"]').first().click();
  const id = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
  expect(await page.locator('h1 .badge.dead').count()).toBe(1);
  await shot(page, 'dead-letter-before');
  const editor = page.locator('textarea#payload');
  const stored = await editor.inputValue();
  // An edit the resource schema refuses (an amount as a number) says why, and sends nothing.
  const sent = h.sim.stats().requests;
  await editor.fill(stored.replace('"-1.00"', '1'));
  await page.click('text=Replay with this payload');
  const refused = page.locator('[data-result].bad');
  await refused.waitFor({ timeout: 20_000 });
  expect(await refused.textContent()).toContain('is not a valid prices payload');
  expect(h.sim.stats().requests).toBe(sent);
  await shot(page, 'dead-letter-edit-refused');
  await editor.fill(stored.replace('-1.00', '1.00'));
  await page.click('text=Replay with this payload');
  const flash = page.locator('[data-flash].ok');
  await flash.waitFor({ timeout: 20_000 });
  expect(await flash.textContent()).toContain('1 delivered');
  await page.locator('h1 .badge.succeeded').waitFor({ timeout: 10_000 });
  expect(await page.locator('h1 .badge.dead').count()).toBe(0);
  expect(await page.locator('main button[data-post]').count()).toBe(0);
  await shot(page, 'dead-letter-after-replay');
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  expect(await page.innerText('main')).toMatch(/replayed with an edited payload by alice/);
  expect(await page.textContent('h1')).toContain(id);
  await shot(page, 'dead-letter-reloaded');
  await page.context().close();
});

it('takes the replayed rows out of the list, unticked, after "Replay selected"', async () => {
  const page = await logIn();
  await page.goto(`${url}/dead-letters?pipeline=catalog`);
  const picks = page.locator('input.pick');
  const before = await picks.count();
  expect(before).toBe(REFUSED.length - 1);
  await picks.nth(0).check();
  await picks.nth(1).check();
  const chosen = [await picks.nth(0).inputValue(), await picks.nth(1).inputValue()];
  await shot(page, 'dead-letters-selected');
  await page.click('text=Replay selected');
  // Refused again: said in amber, not painted green.
  await page.locator('[data-flash].warn').waitFor({ timeout: 20_000 });
  expect(await page.textContent('[data-flash]')).toContain('Replayed 2 dead letter(s)');
  expect(await page.textContent('[data-flash]')).toContain('2 failed again');
  // Refused again, they come back as new dead letters: the replayed ids are gone either way.
  for (const gone of chosen) {
    await page.locator(`input.pick[value="${gone}"]`).waitFor({ state: 'detached' });
  }
  expect(await page.locator('input.pick:checked').count()).toBe(0);
  await shot(page, 'dead-letters-after-replay');
  await page.context().close();
});

it('shows a cancelled run at once, without its Cancel button', async () => {
  // The same products (no deletes for the guard to stop), and 600 new ones.
  const rows = [
    ...Array.from({ length: 20 }, (_, i) => itemRow(`B${1000 + i}`, '10,00')),
    ...REFUSED.map((k) => itemRow(k, '-1,00')),
    ...Array.from({ length: 600 }, (_, i) => itemRow(`C${1000 + i}`, '5,00')),
  ];
  const file = writeItems(join(h.dir, 'big.csv'), rows);
  // No worker takes it until the cancel was asked: the run is surely still going.
  await worker.close();
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
  });
  const page = await logIn();
  await page.goto(`${url}/runs/${runId}`);
  const cancel = page.locator('text=Cancel this run');
  await cancel.waitFor();
  await shot(page, 'run-before-cancel');
  await cancel.click();
  await page.locator('h1 .badge.cancelling, h1 .badge.cancelled').waitFor({ timeout: 10_000 });
  await page.locator('[data-flash].ok').waitFor();
  expect(await page.textContent('[data-flash]')).toMatch(/Run .* is (cancelling|cancelled)/);
  await shot(page, 'run-after-cancel');
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await followRun(h.redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  await page.locator('h1 .badge.cancelled').waitFor({ timeout: 30_000 });
  expect(await page.locator('text=Cancel this run').count()).toBe(0);
  await page.context().close();
});

it('shows a paused schedule at once, and its resume', async () => {
  const page = await logIn();
  await page.goto(`${url}/pipelines/stores-nightly`);
  const pause = page.locator('text=Pause the schedule');
  await pause.click();
  await page.locator('.card .badge.paused').waitFor({ timeout: 10_000 });
  await shot(page, 'pipeline-paused');
  await page.click('text=Resume the schedule');
  await page.locator('text=Pause the schedule').waitFor({ timeout: 10_000 });
  expect(await page.locator('.card .badge.paused').count()).toBe(0);
  await page.context().close();
});

it('clears the file input after an upload, and the page goes on refreshing', async () => {
  const page = await logIn();
  await page.goto(`${url}/pipelines/stores`);
  const file = join(h.dir, 'stores.csv');
  writeFileSync(
    file,
    'Store No.,Name,Address,Post Code,City,Country,Phone,E-Mail,Web URL,Open\n' +
      'S001,Oslo Sentrum,Karl Johans gate 1,0154,Oslo,no,,oslo@example.com,,Yes\n',
  );
  await page.setInputFiles('input[type=file]', file);
  await shot(page, 'pipeline-file-chosen');
  await page.click('form[data-upload] button');
  const flash = page.locator('[data-flash].ok');
  await flash.waitFor({ timeout: 15_000 });
  const runId = /run (\S+)\./.exec((await flash.textContent()) ?? '')?.[1];
  expect(runId).toBeDefined();
  expect(await page.locator('input[type=file]').inputValue()).toBe('');
  // The live refresh runs again: the run's line turns succeeded without a reload.
  const line = page.locator('tr', { has: page.locator(`a[href="/runs/${runId}"]`) });
  await line.locator('.badge.succeeded').waitFor({ timeout: 30_000 });
  await shot(page, 'pipeline-after-upload');
  await page.context().close();
});

it('starts a run from the pipeline\'s own file with "Run now"', async () => {
  const page = await logIn();
  await page.goto(`${url}/pipelines/stores`);
  expect(await page.innerText('main')).toContain('examples/stores.csv');
  await Promise.all([
    page.waitForURL((u) => u.pathname.startsWith('/runs/stores-')),
    page.click('button:has-text("Run now")'),
  ]);
  await page.locator('h1 .badge.succeeded, h1 .badge.partial').waitFor({ timeout: 30_000 });
  expect(await page.innerText('main')).toContain('http');
  await shot(page, 'run-now');
  // A pipeline fed only by uploads has no "Run now"; the route refuses it for one without a file.
  const refused = await fetch(`${url}/api/pipelines/nope/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${OPERATOR}` },
  });
  expect(refused.status).toBe(404);
  await page.context().close();
});

it('filters the runs by status', async () => {
  const page = await logIn();
  await page.goto(`${url}/runs`);
  await page.selectOption('select#status', 'partial');
  await Promise.all([page.waitForURL(/status=partial/), page.click('form button[type=submit]')]);
  const badges = await page.locator('main tbody .badge').allTextContents();
  expect(badges.length).toBeGreaterThan(0);
  expect(new Set(badges)).toEqual(new Set(['partial']));
  expect(await page.locator(`a[href="/runs/${firstRun}"]`).count()).toBe(1);
  await shot(page, 'runs-partial');
  await page.selectOption('select#status', 'guard_stopped');
  await Promise.all([
    page.waitForURL(/status=guard_stopped/),
    page.click('form button[type=submit]'),
  ]);
  expect(await page.innerText('main')).toContain('No run (guard stopped) in the last 30 days.');
  await page.context().close();
});

it('answers an unknown address with a page in a browser, and JSON to a script', async () => {
  const page = await logIn();
  const answer = await page.goto(`${url}/no/such/page`);
  expect(answer?.status()).toBe(404);
  expect(await page.textContent('h1')).toBe('Not found');
  expect(await page.locator('header nav a').count()).toBeGreaterThan(3);
  await shot(page, 'not-found');
  const gone = await page.goto(`${url}/runs/catalog-19990101T000000-dead`);
  expect(gone?.status()).toBe(404);
  expect(await page.textContent('h1')).toBe('Not found');
  const api = await fetch(`${url}/api/no-such-thing`, {
    headers: { authorization: `Bearer ${OPERATOR}`, accept: 'text/html' },
  });
  expect(api.status).toBe(404);
  expect(await api.json()).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });
  const json = await fetch(`${url}/runs/catalog-19990101T000000-dead`, {
    headers: { authorization: `Bearer ${OPERATOR}`, accept: 'application/json' },
  });
  expect(json.status).toBe(404);
  expect(await json.json()).toMatchObject({ error: { code: 'FERRY_NOT_FOUND' } });
  await page.context().close();
});

it('loads the queue board from the installation only, with a link back to the console', async () => {
  const page = await logIn();
  const hosts = new Set<string>();
  page.on('request', (r) => hosts.add(new URL(r.url()).host));
  await page.goto(`${url}/queues`);
  await page.locator('text=delivery-bulk').first().waitFor({ timeout: 15_000 });
  expect([...hosts]).toEqual([new URL(url).host]);
  const back = page.locator('a#ferry-console-link');
  expect(await back.isVisible()).toBe(true);
  await shot(page, 'queues');
  await Promise.all([page.waitForURL(`${url}/`), back.click()]);
  await page.context().close();
});

it('links a stopped upload to its run, clears the file and goes on refreshing', async () => {
  const page = await logIn();
  await page.goto(`${url}/pipelines/catalog`);
  // Every price x100: the value guards stop it.
  const file = writeItems(join(h.dir, 'poisoned.csv'), [
    ...Array.from({ length: 20 }, (_, i) => itemRow(`B${1000 + i}`, '1000,00')),
    ...REFUSED.map((k) => itemRow(k, '-1,00')),
  ]);
  await page.setInputFiles('input[type=file]', file);
  await page.click('form[data-upload] button');
  const flash = page.locator('[data-flash].bad');
  await flash.waitFor({ timeout: 15_000 });
  const link = flash.locator('a');
  expect(await link.textContent()).toMatch(/^Open the stopped run catalog-/);
  const href = (await link.getAttribute('href'))!;
  expect(await page.locator('input[type=file]').inputValue()).toBe('');
  // The page refreshed: the stopped run is among its latest runs.
  await page
    .locator('tr', { has: page.locator(`a[href="${href}"]`) })
    .locator('.badge.guard_stopped')
    .waitFor({ timeout: 15_000 });
  await page.context().close();
});
