/**
 * The interface client's CPU per call: `node --import tsx bench/client-call.ts [N=20000]`.
 * N entity writes (`ageGroupCode.put`, an answer of 200), 8 in flight, against the simulator (a
 * process of its own), sent once with Ferry's client (`createInterfaceClient`: headers, idempotency
 * key, credential, classification, the answer's timing) and once with a bare undici Pool (the same
 * headers and body, the answer read as text). Each is run twice and the second run counts (the
 * first warms up). Prints one JSON line per sender: its user + system CPU per call in µs (this
 * process's) and its seconds. This machine is shared: compare in pairs, the load moves both.
 */
import { Pool } from 'undici';
import { configSchema } from '../src/config/schema.js';
import { createInterfaceClient } from '../src/interface/client.js';
import { startSimulatorProcess } from './simulator-process.js';

const calls = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = 8;
const TOKEN = 'dev-token';
const PATH = '/external/api/age-group-code';
const body = JSON.stringify({ group: 'adult', note: 'x'.repeat(60) });

async function measure(
  send: (i: number) => Promise<number>,
): Promise<{ cpuUs: number; s: number }> {
  let result = { cpuUs: 0, s: 0 };
  for (let round = 0; round < 2; round += 1) {
    let next = 0;
    const cpu = process.cpuUsage();
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < calls) {
          const status = await send(next++);
          if (status !== 200) throw new Error(`answered ${status}`);
        }
      }),
    );
    const used = process.cpuUsage(cpu);
    result = {
      cpuUs: Number(((used.user + used.system) / calls).toFixed(1)),
      s: Number(((performance.now() - started) / 1000).toFixed(2)),
    };
  }
  return result;
}

async function main(): Promise<void> {
  const sim = await startSimulatorProcess();
  const config = configSchema.parse({
    interface: { baseUrl: sim.url, auth: { type: 'bearer', token: TOKEN } },
  });
  const client = createInterfaceClient(config.interface, {
    connections: CONCURRENCY,
    onAnswer: () => {}, // as a worker's metrics: the answer is timed
  });
  const pool = new Pool(sim.url, { connections: CONCURRENCY });
  try {
    const ferry = await measure(async (i) => {
      const answer = await client.call({
        operationId: 'ageGroupCode.put',
        bodyJson: body,
        idempotencyKey: `bench-${i}`,
      });
      return answer.status;
    });
    console.log(
      JSON.stringify({ sender: 'client', calls, cpuUsPerCall: ferry.cpuUs, seconds: ferry.s }),
    );
    const bare = await measure(async (i) => {
      const answer = await pool.request({
        method: 'PUT',
        path: PATH,
        headers: {
          authorization: `Bearer ${TOKEN}`,
          'content-type': 'application/json',
          'idempotency-key': `bench-bare-${i}`,
        },
        body,
      });
      await answer.body.text();
      return answer.statusCode;
    });
    console.log(
      JSON.stringify({ sender: 'undici', calls, cpuUsPerCall: bare.cpuUs, seconds: bare.s }),
    );
  } finally {
    await client.close();
    await pool.close();
    sim.stop();
  }
}

await main();
