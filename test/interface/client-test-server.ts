/** A real node:http server on port 0 for the client tests, recording every request it receives. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { configSchema, type FerryConfig } from '../../src/config/schema.js';

export interface SeenRequest {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** Remote port of the socket it came on (tells connections apart). */
  remotePort: number;
}

export type Handler = (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => unknown;

export interface TestServer {
  url: string;
  requests: SeenRequest[];
  /** What the server answers; replace it per test. */
  handler: Handler;
  close(): Promise<void>;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startTestServer(
  handler: Handler = (_q, res) => sendJson(res, 200, {}),
): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const state: TestServer = {
    url: '',
    requests: [],
    handler,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const seen: SeenRequest = {
        method: raw.method ?? '',
        url: raw.url ?? '',
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        remotePort: raw.socket.remotePort ?? 0,
      };
      state.requests.push(seen);
      void Promise.resolve(state.handler(seen, res, raw)).catch((error: unknown) => {
        sendJson(res, 599, { error: String(error) });
      });
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The interface section of a validated config, with test overrides. */
export function interfaceConfig(overrides: Record<string, unknown> = {}): FerryConfig['interface'] {
  return configSchema.parse({
    interface: { auth: { type: 'bearer', token: 'test-token-123' }, ...overrides },
  }).interface;
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail, and it succeeded');
}
