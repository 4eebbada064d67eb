/**
 * `ferry simulator --processes N`: this process owns the state (one context, as one process has)
 * and N serving processes (node:cluster workers, this very command run again) share the port.
 * The owner applies the writes they plan (owner-channel.ts) and answers at its HTTP server on a
 * Unix socket what they forward. docs/SIMULATOR.md, "Several processes".
 */
import cluster, { type Worker } from 'node:cluster';
import { setMaxListeners } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from './context.js';
import { OwnerChannel } from './owner-channel.js';
import type { ServingSettings } from './owner-messages.js';
import { OWNER_SOCKETS_ENV, type OwnerSockets } from './serving-process.js';
import { listen, serverUrl, simulatorApi, simulatorListener } from './start-simulator.js';
import type { RunningSimulator, SimulatorOptions } from './types.js';

export interface SimulatorProcesses extends RunningSimulator {
  /** The serving processes' pids. */
  readonly pids: readonly number[];
  /**
   * Settles, naming it, when a serving process ends without being asked to: the simulator is then
   * no longer the one it was (its share of the connections gone), and stops.
   */
  readonly lost: Promise<string>;
}

/** The port the workers listen on, once every one does; rejects naming a listen error. */
function listening(workers: Worker[]): Promise<number> {
  return new Promise((resolve, reject) => {
    let left = workers.length;
    for (const worker of workers) {
      worker.once('listening', (address) => {
        if (--left === 0) resolve(address.port);
      });
      worker.on('message', (message: { listenError?: string }) => {
        if (message.listenError === undefined) return;
        reject(
          Object.assign(new Error(`listen: ${message.listenError}`), { code: message.listenError }),
        );
      });
      worker.once('exit', (code) => reject(new Error(`a serving process exited (code ${code})`)));
    }
  });
}

export async function startSimulatorProcesses(
  options: SimulatorOptions,
  processes: number,
): Promise<SimulatorProcesses> {
  const closing = new AbortController();
  setMaxListeners(0, closing.signal);
  const ctx = createContext(options, closing.signal);
  const host = options.host ?? '127.0.0.1';
  let url = '';
  const dir = mkdtempSync(join(tmpdir(), 'ferry-simulator-'));
  const sockets: OwnerSockets = {
    channel: join(dir, 'channel.sock'),
    http: join(dir, 'http.sock'),
  };

  let settings: ServingSettings = {
    version: 0,
    token: ctx.token,
    rejectKeys: ctx.faults.rejectKeys,
  };
  const channels = new Set<OwnerChannel>();
  const changed = () => {
    settings = {
      version: settings.version + 1,
      token: ctx.token,
      rejectKeys: ctx.faults.rejectKeys,
    };
    for (const channel of channels) channel.announceSettings();
  };
  const api = simulatorApi(ctx, options, undefined, () => url, close, changed);

  const http = createHttpServer(simulatorListener(ctx, api));
  http.keepAliveTimeout = 30_000;
  const channelServer = createNetServer((socket) => {
    const channel = new OwnerChannel(ctx, socket, () => settings);
    channels.add(channel);
    socket.on('close', () => channels.delete(channel));
  });
  await listen(http, sockets.http, host);
  await listen(channelServer, sockets.channel, host);

  const workers = Array.from({ length: processes }, () =>
    cluster.fork({ [OWNER_SOCKETS_ENV]: JSON.stringify(sockets) }),
  );
  let stopping = false;
  const lost = new Promise<string>((resolve) => {
    for (const worker of workers) {
      worker.once('exit', (code, signal) => {
        if (stopping) return;
        const how = signal ? `signal ${signal}` : `exit code ${code}`;
        resolve(`serving process ${worker.process.pid} ended (${how})`);
      });
    }
  });

  let closed: Promise<void> | undefined;
  function close(): Promise<void> {
    closed ??= (async () => {
      stopping = true;
      closing.abort();
      ctx.arrivals.stop();
      await Promise.all(workers.map(stopWorker));
      http.closeAllConnections();
      await Promise.all([
        new Promise((resolve) => http.close(resolve)),
        new Promise((resolve) => channelServer.close(resolve)),
      ]);
      rmSync(dir, { recursive: true, force: true });
    })();
    return closed;
  }

  let port: number;
  try {
    port = await listening(workers);
  } catch (error) {
    await close();
    throw error;
  }
  url = serverUrl(host, port);
  ctx.arrivals.start();
  return Object.defineProperties(api, {
    pids: { value: workers.map((w) => w.process.pid!) },
    lost: { value: lost },
  }) as SimulatorProcesses;
}

/** Asks a serving process to exit; kills it when it has not within two seconds. */
async function stopWorker(worker: Worker): Promise<void> {
  if (worker.process.exitCode !== null || worker.process.signalCode !== null) return;
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  if (worker.isConnected()) worker.send('stop');
  const timer = setTimeout(() => worker.process.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}
