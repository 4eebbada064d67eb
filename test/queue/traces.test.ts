/**
 * Traces (docs/TRACES.md): a `ferry run` and one `ferry worker` process export their spans over
 * OTLP/HTTP (JSON) to a receiver this test starts (the worker told by OTEL_EXPORTER_OTLP_ENDPOINT,
 * the run by telemetry.otlp.endpoint); the run's and planning's spans, each stage's
 * release (a child of the run, across processes), each job's (a child of its stage) and each
 * request's (a child of its job, the HTTP client conventions) arrive with their attributes; the simulator received each request's
 * `traceparent`, naming its span; the worker's log lines carry the active span's ids.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { generateItems } from '../../bench/generate-items.js';
import { normalisePlatformUrl } from '../../src/state/platform-binding.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/start-simulator.js';
import { deleteKeys, uniquePrefix } from '../helpers/redis.js';
import { until } from '../helpers/until.js';
import {
  killLeft,
  runFerry,
  runFerryHere,
  spawnFerry,
  workerReady,
  writeConfigFile,
} from './cli-process.js';
import type { FerryProcess } from './cli-process.js';
import { expectNothingOpen, tempDir } from './delivery-fixtures.js';

/** A span as OTLP/JSON carries it, its attributes flattened. */
interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  status?: { code?: number };
  events?: { name: string }[];
  attributes: Record<string, string | number | boolean>;
  service: string;
}

type OtlpValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
};
type OtlpAttribute = { key: string; value: OtlpValue };

const SPAN_KIND_CLIENT = 3;
const SPAN_KIND_CONSUMER = 5;
const SPAN_STATUS_ERROR = 2;

function flatten(attributes: OtlpAttribute[] = []): ReceivedSpan['attributes'] {
  const out: ReceivedSpan['attributes'] = {};
  for (const { key, value } of attributes) {
    const v = value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
    if (v !== undefined) out[key] = typeof v === 'string' && 'intValue' in value ? Number(v) : v;
  }
  return out;
}

/** An OTLP/HTTP receiver: what the exporter POSTs to /v1/traces, decoded. */
function startReceiver(): Promise<{ server: Server; url: string; spans: ReceivedSpan[] }> {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !req.headers['content-type']?.includes('json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const service = String(flatten(rs.resource?.attributes)['service.name']);
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({ ...s, attributes: flatten(s.attributes), service });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, spans });
    }),
  );
}

const dir = tempDir('traces');
const prefixes: string[] = [];
const workers: FerryProcess[] = [];
let sim: RunningSimulator;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, seed: 5 });
  receiver = await startReceiver();
  await generateItems(30, join(dir.path, 'items.csv'), 3);
});

afterAll(async () => {
  await killLeft(workers);
  await sim.close();
  await new Promise((r) => receiver.server.close(r));
  for (const p of prefixes) await deleteKeys(p);
  dir.remove();
  await expectNothingOpen();
});

describe('traces over OTLP/HTTP', () => {
  it('a run, its jobs and their requests arrive as spans; the platform gets traceparent', async () => {
    const prefix = uniquePrefix('traces');
    prefixes.push(prefix);
    /** A config file whose telemetry.otlp.endpoint is `endpoint`. */
    const configWith = (name: string, endpoint: string): string => {
      const file = writeConfigFile(dir.path, prefix, sim.url, { bundleSize: 5 }, undefined, name);
      const config = parse(readFileSync(file, 'utf8'));
      config.telemetry = { otlp: { endpoint }, traceUrl: 'https://tempo.example/trace/{traceId}' };
      writeFileSync(file, stringify(config));
      return file;
    };
    // The worker's variable wins over its config (which names a port nobody listens on); the
    // run has no variable: its config says where.
    const workerConfig = configWith('worker.yaml', 'http://127.0.0.1:1');
    const configFile = configWith('run.yaml', receiver.url);
    // One product the platform refuses (a dead letter), and a rate limit its requests run into.
    sim.setFaults({ rejectKeys: ['100001'], rateLimit: 8 });
    const otel = { OTEL_BSP_SCHEDULE_DELAY: '100', FERRY_LOG_LEVEL: 'info' };
    const worker = spawnFerry(['worker'], workerConfig, {
      ...otel,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    });
    workers.push(worker);
    await workerReady(worker);

    const items = join(dir.path, 'items.csv');
    const run = await runFerry(
      ['run', 'catalog', '--file', items, '--wait', '--no-local-worker', '--json'],
      configFile,
      otel,
    );
    expect(run.stderr).not.toMatch(/unexpected error/);
    const runId = JSON.parse(run.stdout).runId as string;
    // The worker's graceful stop exports what it still holds.
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    await until('the spans of the run', async () =>
      receiver.spans.some((s) => s.name === 'ferry.run'),
    );

    const spans = receiver.spans;
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['ferry']));
    const runSpan = spans.find((s) => s.name === 'ferry.run')!;
    expect(runSpan.attributes).toMatchObject({
      'ferry.run_id': runId,
      'ferry.pipeline': 'catalog',
    });
    const plan = spans.find((s) => s.name === 'ferry.plan')!;
    expect(plan.parentSpanId).toBe(runSpan.spanId);
    expect(plan.attributes['ferry.run_id']).toBe(runId);

    const jobs = spans.filter((s) => s.name === 'ferry.job');
    expect(jobs.length).toBeGreaterThan(1);
    for (const job of jobs) {
      expect(job.kind).toBe(SPAN_KIND_CONSUMER);
      expect(job.traceId).toBe(runSpan.traceId);
      expect(job.attributes).toMatchObject({
        'ferry.run_id': runId,
        'ferry.pipeline': 'catalog',
        'ferry.platform': normalisePlatformUrl(sim.url),
      });
    }
    // Each stage's release is a child of the run (the first released by `ferry run`, the next
    // ones by the worker that settled the stage before), and the parent of the stage's jobs.
    const stages = spans.filter((s) => s.name === 'ferry.stage');
    expect(stages.length).toBeGreaterThan(1);
    for (const stage of stages) {
      expect(stage.parentSpanId).toBe(runSpan.spanId);
      expect(stage.traceId).toBe(runSpan.traceId);
      expect(stage.attributes['ferry.run_id']).toBe(runId);
    }
    const stageOf = new Map(stages.map((s) => [s.spanId, s]));
    for (const job of jobs) {
      const stage = stageOf.get(job.parentSpanId!)!;
      expect(stage.attributes['ferry.stage']).toBe(job.attributes['ferry.stage']);
    }
    expect(stages.reduce((n, s) => n + Number(s.attributes['ferry.jobs']), 0)).toBe(
      new Set(jobs.map((j) => j.attributes['ferry.job_id'])).size,
    );

    const jobIds = new Set(jobs.map((j) => j.spanId));
    const requests = spans.filter((s) => s.name.startsWith('HTTP '));
    expect(requests.length).toBe(sim.stats().requests);
    for (const r of requests) {
      expect(r.kind).toBe(SPAN_KIND_CLIENT);
      expect(jobIds.has(r.parentSpanId!)).toBe(true);
      expect(r.name).toBe(`HTTP ${r.attributes['http.request.method']}`);
      expect(String(r.attributes['url.full'])).toMatch(new RegExp(`^${sim.url}/`));
      expect(r.attributes['server.address']).toBe('127.0.0.1');
      expect(r.attributes['http.response.status_code']).toBeTypeOf('number');
      expect(r.attributes['ferry.operation']).toBeTypeOf('string');
      expect(r.attributes['ferry.idempotency_key']).toBeTypeOf('string');
      expect(r.attributes['ferry.item_count']).toBeGreaterThan(0);
    }

    // Each request the platform received names its own span (a 429's retry is a span of its own).
    const bySpanId = new Map(requests.map((r) => [r.spanId, r]));
    const received = sim.requests();
    expect(received.length).toBe(requests.length);
    for (const rec of received) {
      const [version, traceId, spanId, flags] = rec.traceparent!.split('-');
      expect([version, flags]).toEqual(['00', '01']);
      const span = bySpanId.get(spanId!)!;
      expect(span.traceId).toBe(traceId);
      expect(span.attributes['ferry.idempotency_key']).toBe(rec.idempotencyKey);
      expect(span.attributes['http.response.status_code']).toBe(rec.status);
    }

    // The 429 waits show on their jobs' spans; the dead letter marks its job's span as failed.
    expect(received.some((r) => r.status === 429)).toBe(true);
    const waited = jobs.filter((j) => j.events?.some((e) => e.name === 'ferry.rate_limited'));
    expect(waited.length).toBeGreaterThan(0);
    const failed = jobs.filter((j) => j.status?.code === SPAN_STATUS_ERROR);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((j) => Number(j.attributes['ferry.dead_letters']) > 0)).toBe(true);
    expect(jobs.filter((j) => j.attributes['ferry.dead_letters'] !== undefined)).toEqual(failed);

    // A replay of the dead letter is a run of its own, with its own trace (a local worker).
    const before = new Set(spans.map((s) => s.spanId));
    const replay = await runFerry(['dlq', 'replay', '--all'], configFile, otel);
    expect(replay.stderr).not.toMatch(/unexpected error/);
    await until('the replay spans', async () =>
      receiver.spans.some((s) => s.name === 'ferry.run' && !before.has(s.spanId)),
    );
    const replayRun = receiver.spans.find((s) => s.name === 'ferry.run' && !before.has(s.spanId))!;
    expect(replayRun.attributes).toMatchObject({
      'ferry.run_kind': 'replay',
      'ferry.pipeline': 'catalog',
    });
    const replayJob = receiver.spans.find(
      (s) => s.name === 'ferry.job' && s.traceId === replayRun.traceId,
    )!;
    expect(replayJob.attributes['ferry.run_id']).toBe(replayRun.attributes['ferry.run_id']);

    // The entity trace names the run's trace, linked by telemetry.traceUrl.
    const traced = await runFerryHere(['trace', 'catalog', '100002', '--json'], configFile);
    const [change] = JSON.parse(traced.stdout).changes;
    expect(change).toMatchObject({
      runId,
      outcome: 'delivered',
      traceId: runSpan.traceId,
      traceUrl: `https://tempo.example/trace/${runSpan.traceId}`,
    });
    const text = await runFerryHere(['trace', 'catalog', '100002'], configFile);
    expect(text.stdout).toContain(`trace https://tempo.example/trace/${runSpan.traceId}`);

    // A log line written while a job's span was active carries its ids.
    const lines = worker
      .stderr()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; trace_id?: string; span_id?: string });
    const finished = lines.find((l) => l.msg === 'run finished')!;
    expect(finished.trace_id).toBe(runSpan.traceId);
    expect(jobIds.has(finished.span_id!)).toBe(true);
  });
});
