/** Where traces go: the OTEL_* variables win over telemetry.otlp.endpoint; none of them, no traces. */
import { describe, expect, it } from 'vitest';
import { startTelemetry, tracesEndpoint } from '../../src/logging/telemetry.js';

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
