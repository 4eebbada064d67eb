/**
 * A TCP proxy in front of a test server, to cut connections the way a network does: after
 * `cutAfterBytes` bytes sent to the client on a connection, both sockets are destroyed.
 */
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Cut the next `count` connections after `bytes` bytes from the server (Infinity: every one). */
  cutAfter(bytes: number, count: number): void;
  close(): Promise<void>;
}

export async function startTcpProxy(
  targetPort: number,
  targetHost = '127.0.0.1',
): Promise<TcpProxy> {
  let accepted = 0;
  let cut: { bytes: number; left: number } | undefined;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    accepted++;
    const limit = cut && cut.left > 0 ? cut.bytes : Infinity;
    if (cut && cut.left > 0) cut.left--;
    const upstream = connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    let sent = 0;
    upstream.on('data', (chunk: Buffer) => {
      sent += chunk.length;
      if (sent > limit) {
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    client.on('data', (chunk: Buffer) => upstream.write(chunk));
    const end = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    client.on('close', () => sockets.delete(client));
    upstream.on('close', () => sockets.delete(upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => accepted,
    cutAfter(bytes, count) {
      cut = { bytes, left: count };
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
