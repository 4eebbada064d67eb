import cluster from 'node:cluster';
import { once } from 'node:events';
import { UsageError } from '../../errors/index.js';
import {
  DEFAULT_CLI_PORT,
  MAX_PROCESSES,
  processesFromArgs,
  simulatorOptionsFromArgs,
} from '../simulator-options.js';
import { JSON_OPTION, writeJson, type Command, type OptionSpec } from '../command.js';

const text = (placeholder: string, description: string): OptionSpec => ({
  type: 'string',
  placeholder,
  description,
});

export const simulatorCommand: Command = {
  name: 'simulator',
  usage:
    'simulator [--port P] [--listing A|B | --openapi FILE] [--token T] [--seed N] [--orders-per-minute N] [--processes N] [fault flags] [--json]',
  description: `
Serves every operation of the listing with in-memory state until Ctrl-C (SIGINT) or SIGTERM, then
exits 0. Admin endpoints: GET /__sim/stats, GET /__sim/state/<resource> (orders too),
GET /__sim/requests, POST /__sim/reset, POST /__sim/faults, POST /__sim/orders {"count": N}; the
interface as OpenAPI at /openapi.json and /openapi.yaml. Orders start as a seeded set of 240 and
keep arriving at --orders-per-minute; Z-reports and revenue cover the closed (past, UTC) days.
Fault shares are drawn from one PRNG seeded by --seed, so a seed reproduces the outcomes.
With --openapi FILE (a path or URL) it plays the platform that description states instead: its
operations at its paths, its security per operation (met by --token; none asked where it asks
none), its token endpoint at the described tokenUrl with the scopes checked, its request schemas
(400 with each violation), its maxItems (413), its envelopes and every delete shape (key objects
or bare keys in the body, repeated or comma-separated query parameter, key in the path);
/openapi.json and /openapi.yaml serve the description itself, GET /__sim/requests each body as
received. With --processes N, N processes share the port and parse, authenticate, validate and
answer, while this one holds the state (one rate limit, one idempotency store, one set of stats);
a serving process that dies stops the simulator with exit 1. It pays only where cores are spare
(on 2 cores it is slower than one process: docs/SIMULATOR.md). Exit 2 on a bad flag value, a port
in use or a description that cannot be read (the message names the file and the JSON pointer).

Examples:
  ferry simulator --port 4010 --seed 7 --fail-rate 0.1 --latency 5-50
  ferry simulator --openapi platform.yaml --token secret`,
  options: {
    port: text('P', `TCP port (default ${DEFAULT_CLI_PORT}; 0 picks a free one).`),
    host: text('HOST', 'Address to listen on (default 127.0.0.1).'),
    listing: text('A|B', 'Which listing of operations to serve (default A).'),
    openapi: text(
      'FILE',
      "Play the platform this OpenAPI description (path or URL) states, not Ferry's assumed one.",
    ),
    token: text(
      'T',
      'The credential every request must carry: bearer token, or the API key a description asks for (default dev-token).',
    ),
    'idempotency-header': text('NAME', 'Idempotency header name (default Idempotency-Key).'),
    seed: text('N', 'Seed of the fault PRNG and the synthetic data (default random, shown).'),
    'orders-per-minute': text('N', 'New orders added per minute while it runs (default 0).'),
    'fail-rate': text('X', 'Share of requests answered 500, 502 or 503 (0 to 1).'),
    'rate-limit': text('N', 'Most requests per second; above it 429 with Retry-After.'),
    'retry-after': text('seconds|date', 'Format of the 429 Retry-After header (default seconds).'),
    'rate-limit-headers': text(
      'ietf|x|none',
      'Rate-limit headers on every answer: IETF RateLimit-Policy/RateLimit, X-RateLimit-*, or none (default).',
    ),
    'rate-limit-cost': text(
      'requests|items',
      'What --rate-limit counts: requests (default), or items (a request costs its items).',
    ),
    latency: text('MIN-MAX', 'Milliseconds added to each answer, e.g. 10-100.'),
    'reset-rate': text('X', 'Share of connections destroyed without an answer.'),
    'apply-then-fail-rate': text('X', 'Share of writes applied, then the connection destroyed.'),
    'reject-keys': text('K1,K2', 'externalIds (and productIds) refused with 422.'),
    'client-id': text(
      'ID',
      'Serve POST /oauth/token (with --openapi: the described tokenUrl) for this client id (with --client-secret; with --openapi default dev-client).',
    ),
    'client-secret': text(
      'SECRET',
      'The OAuth2 client secret for --client-id (with --openapi default dev-secret).',
    ),
    processes: text(
      'N',
      `Processes serving the port (1 to ${MAX_PROCESSES}, default 1); this one keeps the state.`,
    ),
    ...JSON_OPTION,
  },
  async run({ args, stdout, stderr, stopSignal }) {
    const simulator = await import('../../simulator/index.js');
    const options = await simulatorOptionsFromArgs(args);
    const sockets = process.env[simulator.OWNER_SOCKETS_ENV];
    if (cluster.isWorker && sockets !== undefined) {
      // A serving process of `--processes N`: it serves until its owner stops it.
      await simulator.serveAsProcess(
        options,
        JSON.parse(sockets) as { channel: string; http: string },
      );
      return new Promise<number>(() => undefined);
    }
    const processes = processesFromArgs(args);
    let sim;
    try {
      sim =
        processes === 1
          ? await simulator.startSimulator(options)
          : await simulator.startSimulatorProcesses(options, processes);
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'EADDRINUSE' || code === 'EADDRNOTAVAIL' || code === 'EACCES') {
        throw new UsageError(
          `cannot listen on ${options.host}:${options.port} (${code}); choose another --port or --host.`,
        );
      }
      throw error;
    }
    const described = sim.described;
    if (args.values.json) {
      await writeJson(stdout, {
        url: sim.url,
        port: sim.port,
        listing: sim.listing,
        processes,
        ...(described ? { described } : {}),
      });
    } else {
      const what = described
        ? `${described.title ?? described.source}: ${described.operations.length} operations described`
        : `listing ${sim.listing}`;
      const serving = processes === 1 ? '' : `, ${processes} serving processes`;
      stdout.write(`Simulator listening on ${sim.url} (${what}${serving})\n`);
      stderr.write(`seed ${sim.stats().seed}; stats at ${sim.url}/__sim/stats; Ctrl-C stops it.\n`);
    }
    const stopped = stopSignal.aborted
      ? undefined
      : once(stopSignal, 'abort').then(() => undefined);
    // With --processes, a serving process that ends unasked stops the simulator too.
    const ended = await ('lost' in sim ? Promise.race([stopped, sim.lost]) : stopped);
    await sim.close();
    if (ended === undefined) return 0;
    stderr.write(`${ended}; the simulator stopped.\n`);
    return 1;
  },
};
