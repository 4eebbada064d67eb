/** Where traces go: the OTEL_* variables win over telemetry.otlp.endpoint; none of them, no traces. */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/errors/index.js';
import { startTelemetry, tracesEndpoint, tracesProtocol } from '../../src/logging/telemetry.js';

describe('tracesEndpoint', () => {
  it('takes the traces variable, then the general one, then the config', () => {
    const config = 'http://collector:4318';
    expect(tracesEndpoint({}, undefined)).toBeUndefined();
    expect(tracesEndpoint({}, config)).toBe(config);
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318' }, config)).toBe(
      'http://a:4318',
    );
    expect(
      tracesEndpoint(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318',
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/v1/traces',
        },
        config,
      ),
    ).toBe('http://b:4318/v1/traces');
  });

  it('is off with OTEL_SDK_DISABLED=true, and an empty variable counts as unset', () => {
    expect(tracesEndpoint({ OTEL_SDK_DISABLED: 'true' }, 'http://collector:4318')).toBeUndefined();
    expect(tracesEndpoint({ OTEL_EXPORTER_OTLP_ENDPOINT: '' }, undefined)).toBeUndefined();
  });

  it('starts nothing without an endpoint', async () => {
    expect(await startTelemetry({}, undefined)).toBeUndefined();
  });
});

describe('tracesProtocol', () => {
  it('is http/json unless told http/protobuf; the traces variable wins', () => {
    expect(tracesProtocol({})).toBe('http/json');
    expect(tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(
      tracesProtocol({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toBe('http/json');
  });

  it('refuses gRPC, naming the variable', () => {
    let refused: unknown;
    try {
      tracesProtocol({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(ConfigError);
    expect((refused as ConfigError).issues).toEqual([
      { path: 'OTEL_EXPORTER_OTLP_PROTOCOL', message: expect.stringContaining('got grpc') },
    ]);
  });
});

describe('startTelemetry', () => {
  it("reports an export the collector refuses, without the exporter's header values", async () => {
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(401, { 'content-type': 'text/plain' }).end('no'));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;
    // In a process of its own: a registered tracer provider is global.
    const script = `
      const { trace } = await import('@opentelemetry/api');
      const { startTelemetry } = await import(${JSON.stringify(resolve(PROJECT_ROOT, 'src/logging/telemetry.ts'))});
      const t = await startTelemetry(process.env, undefined, (m) => process.stderr.write('WARN ' + m + '\\n'));
      trace.getTracer('t').startSpan('one').end();
      await t.shutdown();`;
    const own = Object.entries(process.env).filter(([k]) => !k.startsWith('OTEL_'));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      {
        cwd: PROJECT_ROOT,
        env: {
          ...Object.fromEntries(own),
          OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
          OTEL_EXPORTER_OTLP_HEADERS: 'authorization=Bearer%20sekrit-token-123',
        },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((done) => child.once('exit', done));
    server.close();
    expect(code).toBe(0);
    expect(stderr).toMatch(/^WARN .*401/m);
    expect(stderr).not.toContain('sekrit-token-123');
  });
});
