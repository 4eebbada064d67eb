/**
 * Purge and resume in a real browser (Chromium, playwright-core) against real Redis, a worker and
 * the simulator over TCP: an operator purges one dead letter (its page says so at once, and after
 * a reload), a ticked selection and all a search found, each confirmation naming how many go; a
 * viewer sees no purge button. A run the breaker blocked (a wrong credential) shows why and what
 * to do on its page, the overview and the run list; its Resume button, once the credential is
 * right, lets it run to its end. A cancelled run's page counts its cancelled items.
 * With FERRY_SCREENSHOTS_DIR set, each page is saved there.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FerryConfig } from '../../src/config/schema.js';
import { deliveryKeys } from '../../src/runs/keys.js';
import { followRun } from '../../src/runs/follow-run.js';
import { loadRun } from '../../src/runs/run-report.js';
import { startRun } from '../../src/orchestrate/start-run.js';
import {
  startDeliveryWorker,
  type DeliveryWorker,
} from '../../src/queue/worker/delivery-worker.js';
import { launchBrowser } from '../helpers/browser.js';
import { until } from '../helpers/until.js';
import { quietLogger, useDeliveryHarness } from '../queue/delivery-fixtures.js';
import {
  consoleTestConfig,
  deliverItems,
  itemRow,
  listenConsole,
  OPERATOR,
  VIEWER,
  writeItems,
} from './console-fixtures.js';

const h = useDeliveryHarness('console-purge-resume', { seed: 63, faults: { latency: [5, 15] } });
const SHOTS = process.env.FERRY_SCREENSHOTS_DIR;
/** Products the platform refuses (negative prices): a dead letter each. */
const REFUSED = ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'];
const GOOD = Array.from({ length: 20 }, (_, i) => itemRow(`G${100 + i}`, '10,00'));
/** The refused products, priced right (once their dead letters are purged). */
const FIXED = REFUSED.map((k) => itemRow(k, '1,00'));
const THRESHOLD = 3;
let config: FerryConfig;
let app: FastifyInstance;
let url: string;
let worker: DeliveryWorker;
let browser: Browser;

beforeAll(async () => {
  config = consoleTestConfig(h);
  // A probe far off: a blocked run stays blocked until the Resume button.
  config.delivery.breaker = { threshold: THRESHOLD, probeSeconds: 600 };
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  await deliverItems(h, config, [...GOOD, ...REFUSED.map((k) => itemRow(k, '-1,00'))]);
  ({ app, url } = await listenConsole(config, h.redis));
  browser = await launchBrowser();
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
}, 90_000);

afterAll(async () => {
  h.sim.setToken('dev-token');
  await browser?.close();
  await app?.close();
  await worker?.close();
});

/** A logged-in page whose confirmations are accepted and kept in `asked`. */
async function logIn(token = OPERATOR): Promise<{ page: Page; asked: string[] }> {
  const page = await (
    await browser.newContext({ viewport: { width: 1280, height: 900 } })
  ).newPage();
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
  await page.goto(`${url}/login`);
  await page.fill('#token', token);
  await Promise.all([page.waitForURL(`${url}/`), page.click('button[type=submit]')]);
  return { page, asked };
}

async function shot(page: Page, name: string): Promise<void> {
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

it('shows a viewer no purge button', async () => {
  const { page } = await logIn(VIEWER);
  await page.goto(`${url}/dead-letters?pipeline=catalog`);
  expect(await page.locator('main tbody tr').count()).toBe(REFUSED.length);
  expect(await page.locator('button:has-text("Purge")').count()).toBe(0);
  await page.locator('a[href^="/dead-letters/d"]').first().click();
  await page.locator('h1 .badge.dead').waitFor();
  expect(await page.locator('button:has-text("Purge")').count()).toBe(0);
  expect(await page.innerText('main')).toContain('An operator can edit the payload');
  await page.context().close();
});

it('purges one dead letter from its page, which says so at once and after a reload', async () => {
  const { page, asked } = await logIn();
  await page.goto(`${url}/dead-letters?key=R1`);
  await page.locator('a[href^="/dead-letters/d"]').first().click();
  await page.locator('h1 .badge.dead').waitFor();
  await shot(page, 'dead-letter-purge-before');
  await page.click('button:has-text("Purge")');
  await page.locator('[data-flash].ok').waitFor({ timeout: 10_000 });
  expect(asked[0]).toContain('(1 dead letter, 1 item(s))');
  expect(await page.textContent('[data-flash]')).toContain('Purged 1 dead letter(s) of 1 item(s)');
  await page.locator('h1 .badge.purged').waitFor({ timeout: 10_000 });
  expect(await page.locator('main button[data-post]').count()).toBe(0);
  await page.reload();
  expect(await page.innerText('main')).toMatch(/purged by alice .* ago: discarded unsent/);
  await shot(page, 'dead-letter-purged');
  await page.context().close();
});

it('purges the ticked rows, then all a search found, each confirmation naming how many', async () => {
  const { page, asked } = await logIn();
  await page.goto(`${url}/dead-letters?pipeline=catalog`);
  const picks = page.locator('input.pick');
  expect(await picks.count()).toBe(REFUSED.length - 1);
  await picks.nth(0).check();
  await picks.nth(1).check();
  const chosen = [await picks.nth(0).inputValue(), await picks.nth(1).inputValue()];
  await shot(page, 'dead-letters-purge-buttons');
  await page.click('button:has-text("Purge selected")');
  await page.locator('[data-flash].ok').waitFor({ timeout: 10_000 });
  expect(asked[0]).toMatch(/^Purge the 2 selected dead letter\(s\)\?/);
  for (const gone of chosen) {
    await page.locator(`input.pick[value="${gone}"]`).waitFor({ state: 'detached' });
  }
  const left = REFUSED.length - 3;
  expect(await picks.count()).toBe(left);

  await page.click(`button:has-text("Purge all ${left} found")`);
  await page.locator('text=No dead letter matches').waitFor({ timeout: 10_000 });
  expect(asked[1]).toMatch(
    new RegExp(`^Purge all ${left} dead letter\\(s\\) found \\(pipeline catalog\\)\\?`),
  );
  expect(await page.textContent('[data-flash]')).toContain(`Purged ${left} dead letter(s)`);
  await page.goto(`${url}/audit`);
  expect(await page.innerText('main')).toContain(`pipeline=catalog (${left})`);
  await page.context().close();
});

it('shows a blocked run and what to do, and its Resume button lets it finish', async () => {
  h.sim.setToken('a-token-ferry-does-not-have');
  // Every product again (no deletes for the guard to stop), new prices for all.
  const file = writeItems(join(h.dir, 'blocked.csv'), [
    ...GOOD.map((r) => r.replace('10,00', '11,00')),
    ...FIXED,
  ]);
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
  });
  const keys = deliveryKeys(config.redis.prefix);
  await until(
    'the run blocked',
    async () => (await loadRun(h.redis, keys, runId)).status === 'blocked',
  );
  const { page, asked } = await logIn();

  // The overview and the run list say it is blocked, why, and where to act.
  const row = page.locator('tr', { has: page.locator('a[href="/pipelines/catalog"]') });
  await row.locator('.badge.blocked').waitFor({ timeout: 10_000 });
  expect(await page.innerText('.notice.warn')).toMatch(/catalog \(delivery blocked/);
  expect(await row.innerText()).toContain('refuses the credential');
  expect(await row.locator(`a[href="/runs/${runId}"]:has-text("Resume or cancel")`).count()).toBe(
    1,
  );
  await shot(page, 'overview-blocked');
  await page.goto(`${url}/runs?status=blocked`);
  expect(await page.locator('main tbody .badge').allTextContents()).toEqual(['blocked']);
  expect(await page.innerText('main tbody')).toContain('Resume or cancel');
  await shot(page, 'runs-blocked');

  await page.goto(`${url}/runs/${runId}`);
  await page.locator('h1 .badge.blocked').waitFor();
  const notice = await page.innerText('.notice.bad');
  expect(notice).toContain('Delivery blocked: the platform refuses the credential (401');
  expect(notice).toContain(`on ${THRESHOLD} requests in a row`);
  expect(notice).toContain(`\`ferry resume ${runId}\``);
  expect(await page.locator('text=Cancel this run').count()).toBe(1);
  await shot(page, 'run-blocked');

  h.sim.setToken('dev-token');
  await page.click('button:has-text("Resume delivery now")');
  expect(asked[0]).toContain(`Resume run ${runId} now?`);
  await page.locator('[data-flash].ok').waitFor({ timeout: 10_000 });
  expect(await page.textContent('[data-flash]')).toContain(`Resumed run ${runId}`);
  // The page follows the run to its end by itself; the flash says what was done, and claims no
  // status beside "succeeded" (it said "is running." after the run had ended).
  await page.locator('h1 .badge.succeeded').waitFor({ timeout: 30_000 });
  expect(await page.textContent('[data-flash]')).not.toContain('running');
  expect(await page.locator('button:has-text("Resume delivery now")').count()).toBe(0);
  expect(await page.innerText('dl.kv')).toMatch(/\b(\d+) of \1 settled: \1 delivered/);
  await page.goto(`${url}/audit`);
  expect(await page.innerText('main')).toContain('run.resume');
  await page.context().close();
});

it("counts a cancelled run's cancelled items on its page", async () => {
  const file = writeItems(join(h.dir, 'cancelled.csv'), [
    ...GOOD,
    ...FIXED,
    ...Array.from({ length: 300 }, (_, i) => itemRow(`K${1000 + i}`, '5,00')),
  ]);
  // No worker takes it until the cancel was asked: the run is surely still going.
  await worker.close();
  const { runId } = await startRun({
    config,
    redis: h.redis,
    logger: quietLogger(),
    pipeline: 'catalog',
    source: { file },
  });
  const { page } = await logIn();
  await page.goto(`${url}/runs/${runId}`);
  await page.click('text=Cancel this run');
  await page.locator('h1 .badge.cancelling, h1 .badge.cancelled').waitFor({ timeout: 10_000 });
  worker = await startDeliveryWorker({ config, logger: quietLogger() });
  const run = await followRun(h.redis, deliveryKeys(config.redis.prefix), runId, () => undefined);
  expect(run.status).toBe('cancelled');
  await page.reload();
  await page.locator('h1 .badge.cancelled').waitFor();
  const items = await page.innerText('dl.kv');
  expect(items).toMatch(/[0-9,]+ of [0-9,]+ settled: .*, [1-9][0-9,]* cancelled;/);
  expect(await page.locator('th:has-text("Cancelled")').count()).toBe(1);
  expect(await page.innerText('.notice.warn')).toMatch(
    /^Cancelled: [0-9,]+ planned item\(s\) were not sent/,
  );
  expect(await page.innerText('main')).toContain('Nothing was delivered.');
  await shot(page, 'run-cancelled');
  await page.context().close();
});
