/** Where traces go: the OTEL_* variables win over telemetry.otlp.endpoint; none of them, no traces. */
import { describe, expect, it } from 'vitest';
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
