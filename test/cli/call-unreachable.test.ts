/**
 * `ferry call` with the platform unreachable exits 5 (Redis, the platform or a remote source could
 * not be reached: README) and names the URL it tried; it used to exit 1 naming nothing.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ferryHere } from '../helpers/ferry-here.js';

/** A local port nothing listens on: a server's, once closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('ferry call, the platform unreachable', () => {
  it('exits 5 naming the URL it tried, with --json too', async () => {
    const base = `http://127.0.0.1:${await closedPort()}/shop/`;
    const env = { FERRY_BASE_URL: base, FERRY_PREFIX: 'ferrytest-call-unreachable' };
    const args = ['call', 'products.get'];
    const text = await ferryHere(args, { env });
    expect(text.code).toBe(5);
    expect(text.stderr).toContain(
      `tried http://127.0.0.1:${new URL(base).port}/shop/external/api/products`,
    );

    const json = await ferryHere([...args, '--json'], { env });
    expect(json.code).toBe(5);
    expect(JSON.parse(json.stdout)).toMatchObject({
      status: null,
      error: { code: 'FERRY_NETWORK' },
    });
  });

  it('says so in its help', async () => {
    const help = await ferryHere(['call', '--help'], { env: {} });
    expect(help.stdout).toMatch(/5 when the platform could not be\s+reached/);
  });
});
