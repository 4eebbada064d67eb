/**
 * Delivery throughput: `node --import tsx bench/delivery.ts [N=100000] [--concurrency C]
 * [--rate auto|R] [--sim-processes N]` (`delivery.ratePerSecond` of the run, default auto: discovered from nothing, as
 * on a new installation; 0 sends without a gate).
 * Against the simulator (a process of its own, no faults) on this machine:
 *  1. `ferry run catalog --wait` of an N-row items.csv (bench/generate-items.ts), timed from the
 *     start of the run (planning included) to its end;
 *  2. the same file again, unchanged: it must send nothing;
 *  3. the bound: the very same requests (the same batches, planned against an empty state) sent
 *     straight with undici at the same concurrency, stage after stage, on a reset simulator. It is
 *     measured before and after the runs, each time in a process of its own, and the faster of the
 *     two counts (this machine is shared: the faster bound is the conservative one).
 * Prints one JSON line: rows, items, requests, seconds, cpuSeconds (this process's user + system
 * CPU during the first run: planning and the in-process worker), planCpuSeconds and
 * deliveryCpuSeconds (that CPU up to the first stage's release, and after it), itemsPerSec,
 * boundCpuSeconds (the bare sender's CPU while it sent, the lower of the two), cpuRatio and
 * deliveryCpuRatio (cpuSeconds and deliveryCpuSeconds over boundCpuSeconds: the run's CPU per
 * request against the bare sender's), mainCpuSeconds, planMainCpuSeconds and boundMainCpuSeconds
 * (the main thread's part of the run's, planning's and the bound's CPU: the rest is V8's
 * optimising compiler and garbage collector on threads of their own), boundItemsPerSec,
 * ratio (run / bound), rerunSeconds, rerunRequests, peakRssMb (of the process that ran the runs),
 * and what the first run and the faster bound cost the simulator and Redis (simCpuSeconds,
 * redisCpuSeconds, boundSimCpuSeconds, boundRedisCpuSeconds; Linux's /proc and Redis's INFO) with
 * the machine's cores: on a machine where all of them share the cores, the run can take no less
 * than the CPU seconds of the three over the cores. With --sim-processes N the simulator runs as
 * `ferry simulator --processes N`: simCpuSeconds counts all its processes, simOwnerCpuSeconds (and
 * boundSimOwnerCpuSeconds) the owner's part.
 * Then the same file once more in this now warm process, against an empty state (a prefix of its
 * own, the simulator reset): warmSeconds, warmCpuSeconds, warmPlanCpuSeconds (up to the first
 * stage's release), boundWarmCpuSeconds (the bare sender's CPU for the same requests sent a
 * second time by its process, the lower of the two bounds) and warmCpuRatio (warm over warm): the
 * CPU per request once V8 has compiled the code of each (the first run pays for that compiling,
 * on threads of its own, and the bound's much smaller code pays for its own).
 * With --trace, the same file again, exporting traces (src/logging/telemetry.ts) to an OTLP/HTTP
 * sink in this process that answers 200 and counts the spans. It adds untracedSeconds,
 * untracedCpuSeconds (the warm run's), tracedSeconds, tracedCpuSeconds, spans, tracingCost and
 * tracingCpuCost (traced / untraced).
 * Needs a Redis (REDIS_URL); the keys it wrote are deleted at the end.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { Pool } from 'undici';
import { loadConfig, PROJECT_ROOT } from '../src/config/load-config.js';
import { configSchema, type FerryConfig } from '../src/config/schema.js';
import { resolveBindings, type Binding } from '../src/interface/bindings.js';
import { createLogger } from '../src/logging/logger.js';
import { startTelemetry } from '../src/logging/telemetry.js';
import { loadPipeline } from '../src/pipeline/definition/load-pipeline.js';
import { boundHeapGrowth } from '../src/pipeline/heap-tuning.js';
import { planPipeline } from '../src/pipeline/plan-pipeline.js';
import type { DeliveryRequest } from '../src/pipeline/types.js';
import { executeRun } from '../src/orchestrate/execute-run.js';
import type { RunReport } from '../src/runs/run-report.js';
import { deleteKeysUnder } from '../src/redis/delete-prefix.js';
import { generateItems } from './generate-items.js';
import {
  mainThreadCpuSeconds,
  processCpuSeconds,
  processTreeCpuSeconds,
  redisCpuSeconds,
} from './process-cpu.js';
import { startSimulatorProcess } from './simulator-process.js';

const { values, positionals } = parseArgs({
  options: {
    concurrency: { type: 'string' },
    rate: { type: 'string', default: 'auto' },
    trace: { type: 'boolean', default: false },
    // `ferry simulator --processes N`: its serving processes (default 1, one process).
    'sim-processes': { type: 'string', default: '1' },
    // Internal: measure the bound only (in a process of its own), against this simulator.
    'bound-of': { type: 'string' },
    'sim-pid': { type: 'string' },
  },
  allowPositionals: true,
});
const rows = Number(positionals[0] ?? 100_000);
const file = resolve(PROJECT_ROOT, `.bench-data/plan-items-${rows}.csv`);
const TOKEN = 'dev-token';

async function simStats(url: string): Promise<{ requests: number; duplicates: number }> {
  return (await (await fetch(`${url}/__sim/stats`)).json()) as {
    requests: number;
    duplicates: number;
  };
}

function fillPath(binding: Binding, params: Record<string, string>): string {
  return binding.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
}

/** The simulator's CPU seconds so far: all its processes, and the first (the owner) alone. */
function simCpu(pid: number | undefined) {
  const all = processTreeCpuSeconds(pid);
  const owner = processCpuSeconds(pid);
  return all === undefined || owner === undefined ? undefined : { all, owner };
}

function simCpuUsed(before: ReturnType<typeof simCpu>, after: ReturnType<typeof simCpu>) {
  if (before === undefined || after === undefined) return {};
  return { simCpuSeconds: after.all - before.all, simOwnerCpuSeconds: after.owner - before.owner };
}

/** The bound: the same requests, straight with undici, `concurrency` at a time, stage by stage. */
async function sendStraight(
  url: string,
  stages: DeliveryRequest[][],
  concurrency: number,
  simPid: number | undefined,
): Promise<{
  seconds: number;
  cpuSeconds: number;
  mainCpuSeconds?: number;
  simCpuSeconds?: number;
  simOwnerCpuSeconds?: number;
}> {
  const bindings = resolveBindings({});
  const pool = new Pool(url, { connections: concurrency });
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const mainBefore = mainThreadCpuSeconds();
  const simBefore = simCpu(simPid);
  for (const requests of stages) {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests.length) {
          const r = requests[next++] as DeliveryRequest;
          const binding = bindings.get(r.operationId) as Binding;
          const answer = await pool.request({
            method: binding.operation.method,
            path: fillPath(binding, r.pathParams),
            headers: {
              authorization: `Bearer ${TOKEN}`,
              'content-type': 'application/json',
              'idempotency-key': r.idempotencyKey,
            },
            body: JSON.stringify(r.body),
          });
          await answer.body.text();
          if (answer.statusCode >= 300)
            throw new Error(`bound: ${r.operationId} answered ${answer.statusCode}`);
        }
      }),
    );
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const mainAfter = mainThreadCpuSeconds();
  const simAfter = simCpu(simPid);
  await pool.close();
  return {
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    ...(mainBefore !== undefined && mainAfter !== undefined
      ? { mainCpuSeconds: mainAfter - mainBefore }
      : {}),
    ...simCpuUsed(simBefore, simAfter),
  };
}

async function timedRun(
  config: FerryConfig,
  redis: Redis,
  simPid: number | undefined,
): Promise<{
  report: RunReport;
  seconds: number;
  cpuSeconds: number;
  planCpuSeconds: number;
  /** The main thread's part of each (the rest: V8's compiler and GC threads). */
  planMainCpuSeconds?: number;
  mainCpuSeconds?: number;
  simCpuSeconds?: number;
  simOwnerCpuSeconds?: number;
  redisCpuSeconds: number;
}> {
  const simBefore = simCpu(simPid);
  const redisBefore = await redisCpuSeconds(redis);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  const mainBefore = mainThreadCpuSeconds();
  let mainPlanned: number | undefined;
  let planned = { user: 0, system: 0 };
  const report = await executeRun({
    config,
    logger: createLogger({ level: 'warn', format: 'json' }),
    pipeline: 'catalog',
    source: { file },
    wait: true,
    onStarted: () => {
      planned = process.cpuUsage(cpu);
      mainPlanned = mainThreadCpuSeconds();
    },
  });
  const used = process.cpuUsage(cpu);
  const mainAfter = mainThreadCpuSeconds();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const simAfter = simCpu(simPid);
  return {
    report,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    planCpuSeconds: (planned.user + planned.system) / 1e6,
    ...(mainBefore !== undefined && mainPlanned !== undefined && mainAfter !== undefined
      ? { planMainCpuSeconds: mainPlanned - mainBefore, mainCpuSeconds: mainAfter - mainBefore }
      : {}),
    redisCpuSeconds: (await redisCpuSeconds(redis)) - redisBefore,
    ...simCpuUsed(simBefore, simAfter),
  };
}

function benchConfig(redisUrl: string, prefix: string, simUrl: string, concurrency: number) {
  return configSchema.parse({
    redis: { url: redisUrl, prefix },
    interface: { baseUrl: simUrl, auth: { type: 'bearer', token: TOKEN } },
    delivery: {
      concurrency,
      ratePerSecond: values.rate === 'auto' ? 'auto' : Number(values.rate),
      reportsDir: resolve(PROJECT_ROOT, '.bench-data/reports'),
    },
    log: { level: 'warn' },
  });
}

/** In a child process: plan against an empty state, reset the simulator, send straight. */
async function measureBound(
  simUrl: string,
  concurrency: number,
  simPid: number | undefined,
): Promise<void> {
  const base = loadConfig().config;
  const prefix = `ferry-bench-bound-${process.pid}`;
  const config = benchConfig(base.redis.url, prefix, simUrl, concurrency);
  const redis = new Redis(base.redis.url);
  try {
    const plan = await planPipeline({
      definition: loadPipeline('catalog', config),
      sourceOverride: { file },
      redis,
      prefix,
      config,
      retainRequests: true,
    });
    await fetch(`${simUrl}/__sim/reset`, { method: 'POST' });
    const stages = plan.stages.map((s) => s.requests).filter((r) => r.length > 0);
    const redisBefore = await redisCpuSeconds(redis);
    const sent = await sendStraight(simUrl, stages, concurrency, simPid);
    const redisCpu = (await redisCpuSeconds(redis)) - redisBefore;
    await fetch(`${simUrl}/__sim/reset`, { method: 'POST' });
    // Once more in this now warm process: what the warm run is compared with.
    const warm = await sendStraight(simUrl, stages, concurrency, simPid);
    await fetch(`${simUrl}/__sim/reset`, { method: 'POST' });
    const requests = stages.reduce((n, s) => n + s.length, 0);
    console.log(
      JSON.stringify({
        ...sent,
        warmCpuSeconds: warm.cpuSeconds,
        redisCpuSeconds: redisCpu,
        requests,
      }),
    );
  } finally {
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
  }
}

interface Bound {
  seconds: number;
  cpuSeconds: number;
  /** The same requests sent again by the same, now warm, process. */
  warmCpuSeconds: number;
  mainCpuSeconds?: number;
  simCpuSeconds?: number;
  simOwnerCpuSeconds?: number;
  redisCpuSeconds: number;
  requests: number;
}

async function boundInChild(
  simUrl: string,
  concurrency: number,
  simPid: number | undefined,
): Promise<Bound> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'bench/delivery.ts',
      String(rows),
      '--bound-of',
      simUrl,
      '--concurrency',
      String(concurrency),
      ...(simPid === undefined ? [] : ['--sim-pid', String(simPid)]),
    ],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  for await (const chunk of child.stdout) out += String(chunk);
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Bound;
}

/** An OTLP/HTTP sink: answers every export 200 and counts the spans (JSON bodies). */
async function startSink(): Promise<{ url: string; spans: () => number; close(): void }> {
  let spans = 0;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      spans += body.split('"spanId"').length - 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, spans: () => spans, close: () => server.close() };
}

/** The first run again, on a reset simulator and an empty state (a prefix of its own). */
async function freshRun(
  label: string,
  redisUrl: string,
  sim: { url: string; pid: number | undefined },
  concurrency: number,
  redis: Redis,
): Promise<{ seconds: number; cpuSeconds: number; planCpuSeconds: number }> {
  const prefix = `ferry-bench-${label}-${process.pid}`;
  await fetch(`${sim.url}/__sim/reset`, { method: 'POST' });
  try {
    return await timedRun(benchConfig(redisUrl, prefix, sim.url, concurrency), redis, sim.pid);
  } finally {
    await deleteKeysUnder(redis, prefix);
  }
}

/**
 * Tracing on against the warm run with it off (the same warm process, each on an empty state): the
 * first run's figures include the process's warm-up and are no fair comparison.
 */
async function tracingCost(
  off: { seconds: number; cpuSeconds: number },
  redisUrl: string,
  sim: { url: string; pid: number | undefined },
  concurrency: number,
  redis: Redis,
): Promise<Record<string, number>> {
  const sink = await startSink();
  const telemetry = await startTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, undefined);
  try {
    const on = await freshRun('traced', redisUrl, sim, concurrency, redis);
    await telemetry?.shutdown(); // every span exported
    return {
      untracedSeconds: Number(off.seconds.toFixed(2)),
      untracedCpuSeconds: Number(off.cpuSeconds.toFixed(2)),
      tracedSeconds: Number(on.seconds.toFixed(2)),
      tracedCpuSeconds: Number(on.cpuSeconds.toFixed(2)),
      spans: sink.spans(),
      tracingCost: Number((on.seconds / off.seconds).toFixed(2)),
      tracingCpuCost: Number((on.cpuSeconds / off.cpuSeconds).toFixed(2)),
    };
  } finally {
    sink.close();
  }
}

async function main(): Promise<void> {
  boundHeapGrowth(); // as `ferry run` does
  if (!existsSync(file)) await generateItems(rows, file);
  const base = loadConfig().config;
  const concurrency = Number(values.concurrency ?? base.delivery.concurrency);
  const simProcesses = Number(values['sim-processes']);
  const sim = await startSimulatorProcess(
    simProcesses > 1 ? ['--processes', String(simProcesses)] : [],
  );
  const prefix = `ferry-bench-${process.pid}`;
  const config = benchConfig(base.redis.url, prefix, sim.url, concurrency);
  const redis = new Redis(base.redis.url);
  try {
    const boundBefore = await boundInChild(sim.url, concurrency, sim.pid);
    const first = await timedRun(config, redis, sim.pid);
    const afterFirst = await simStats(sim.url);
    const rerun = await timedRun(config, redis, sim.pid);
    const afterRerun = await simStats(sim.url);
    const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
    const warm = await freshRun('warm', base.redis.url, sim, concurrency, redis);
    const boundAfter = await boundInChild(sim.url, concurrency, sim.pid);
    // Last: a registered tracer provider stays for the rest of the process.
    const traced = values.trace
      ? await tracingCost(warm, base.redis.url, sim, concurrency, redis)
      : {};
    const bound = boundBefore.seconds <= boundAfter.seconds ? boundBefore : boundAfter;
    // The CPU ratios' bound is the one that spent less CPU (the conservative one for them, as the
    // faster is for the time ratio): the same requests cost the sender 1.0-1.7 CPU s between runs.
    const cpuBound = boundBefore.cpuSeconds <= boundAfter.cpuSeconds ? boundBefore : boundAfter;
    const warmBoundCpu = Math.min(boundBefore.warmCpuSeconds, boundAfter.warmCpuSeconds);
    const boundSeconds = bound.seconds;

    const items = Object.values(first.report.operations).reduce((n, c) => n + c.planned, 0);
    const itemsPerSec = items / first.seconds;
    const boundItemsPerSec = items / boundSeconds;
    const delivered = Object.values(first.report.operations).reduce((n, c) => n + c.delivered, 0);
    if (delivered !== items || afterFirst.duplicates !== 0) {
      throw new Error(
        `run delivered ${delivered} of ${items} items, ${afterFirst.duplicates} duplicates`,
      );
    }
    console.log(
      JSON.stringify({
        rows,
        items,
        requests: boundBefore.requests,
        runRequests: afterFirst.requests,
        concurrency,
        seconds: Number(first.seconds.toFixed(2)),
        cpuSeconds: Number(first.cpuSeconds.toFixed(2)),
        planCpuSeconds: Number(first.planCpuSeconds.toFixed(2)),
        deliveryCpuSeconds: Number((first.cpuSeconds - first.planCpuSeconds).toFixed(2)),
        itemsPerSec: Math.round(itemsPerSec),
        boundSeconds: Number(boundSeconds.toFixed(2)),
        boundCpuSeconds: Number(cpuBound.cpuSeconds.toFixed(2)),
        mainCpuSeconds: twoDecimals(first.mainCpuSeconds),
        planMainCpuSeconds: twoDecimals(first.planMainCpuSeconds),
        boundMainCpuSeconds: twoDecimals(cpuBound.mainCpuSeconds),
        cpuRatio: Number((first.cpuSeconds / cpuBound.cpuSeconds).toFixed(2)),
        deliveryCpuRatio: Number(
          ((first.cpuSeconds - first.planCpuSeconds) / cpuBound.cpuSeconds).toFixed(2),
        ),
        warmSeconds: twoDecimals(warm.seconds),
        warmCpuSeconds: twoDecimals(warm.cpuSeconds),
        warmPlanCpuSeconds: twoDecimals(warm.planCpuSeconds),
        boundWarmCpuSeconds: twoDecimals(warmBoundCpu),
        warmCpuRatio: Number((warm.cpuSeconds / warmBoundCpu).toFixed(2)),
        boundItemsPerSec: Math.round(boundItemsPerSec),
        ratio: Number((itemsPerSec / boundItemsPerSec).toFixed(2)),
        rerunSeconds: Number(rerun.seconds.toFixed(2)),
        rerunRequests: afterRerun.requests - afterFirst.requests,
        peakRssMb,
        simProcesses,
        simCpuSeconds: twoDecimals(first.simCpuSeconds),
        simOwnerCpuSeconds: twoDecimals(first.simOwnerCpuSeconds),
        redisCpuSeconds: twoDecimals(first.redisCpuSeconds),
        boundSimCpuSeconds: twoDecimals(bound.simCpuSeconds),
        boundSimOwnerCpuSeconds: twoDecimals(bound.simOwnerCpuSeconds),
        boundRedisCpuSeconds: twoDecimals(bound.redisCpuSeconds),
        cores: availableParallelism(),
        ...traced,
      }),
    );
  } finally {
    await deleteKeysUnder(redis, prefix);
    redis.disconnect();
    sim.stop();
  }
}

const twoDecimals = (n: number | undefined) => (n === undefined ? undefined : Number(n.toFixed(2)));

if (values['bound-of']) {
  const simPid = values['sim-pid'] === undefined ? undefined : Number(values['sim-pid']);
  await measureBound(values['bound-of'], Number(values.concurrency ?? 8), simPid);
} else await main();
