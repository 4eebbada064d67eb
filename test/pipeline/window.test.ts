/**
 * A pipeline's delivery window, `window: {endsAt: "HH:MM", tz}`: checked when the pipeline loads,
 * and its end for a run: the first endsAt in tz after the run started, across midnight and DST.
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/errors/index.js';
import { loadPipeline } from '../../src/pipeline/definition/load-pipeline.js';
import { windowEnd } from '../../src/pipeline/definition/window-schema.js';
import { configWith, definitionOf, tempDir } from './helpers.js';

const pipeline = (window: unknown) => ({
  source: { connector: 'csv' },
  mode: 'snapshot',
  window,
  entities: [{ operations: { upsert: 'products.put' }, key: 'No.', fields: {} }],
});

describe('window', () => {
  it('is kept by the definition, its tz UTC unless given', () => {
    expect(definitionOf('night', pipeline({ endsAt: '06:00' })).window).toEqual({
      endsAt: '06:00',
      tz: 'UTC',
    });
    expect(definitionOf('day', pipeline(undefined)).window).toBeUndefined();
  });

  it('refuses a time that is not HH:MM and a zone that is not IANA, by path', () => {
    const dir = tempDir();
    try {
      dir.file(
        'night.yaml',
        "source: {connector: csv}\nmode: snapshot\nwindow: {endsAt: '6am', tz: Mars/Olympus}\nentities:\n  - key: No.\n    operations: { upsert: products.put }\n",
      );
      const config = configWith({ pipelines: { dir: dir.path } });
      let error: unknown;
      try {
        loadPipeline('night', config);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const issues = (error as ConfigError).issues;
      expect(issues.map((i) => i.path).sort()).toEqual(['window.endsAt', 'window.tz']);
      expect(issues.find((i) => i.path === 'window.endsAt')?.message).toContain('HH:MM');
      for (const endsAt of ['24:00', '6:00', '06:60']) {
        expect(() => definitionOf('night', pipeline({ endsAt }))).toThrow();
      }
    } finally {
      dir.remove();
    }
  });

  it('ends at the first endsAt in tz after the run started', () => {
    const berlin = { endsAt: '06:00', tz: 'Europe/Berlin' };
    // Started 23:00 in Berlin (22:00 UTC, winter): until 06:00 the next morning (05:00 UTC).
    expect(windowEnd(berlin, Date.UTC(2026, 10, 25, 22, 0))).toBe(Date.UTC(2026, 10, 26, 5, 0));
    // Started 06:30: until 06:00 the day after.
    expect(windowEnd(berlin, Date.UTC(2026, 10, 26, 5, 30))).toBe(Date.UTC(2026, 10, 27, 5, 0));
    // The night the clocks go forward (29 March 2026): 06:00 is 04:00 UTC.
    expect(windowEnd(berlin, Date.UTC(2026, 2, 28, 22, 0))).toBe(Date.UTC(2026, 2, 29, 4, 0));
    expect(windowEnd({ endsAt: '00:15', tz: 'UTC' }, Date.UTC(2026, 10, 25, 23, 59))).toBe(
      Date.UTC(2026, 10, 26, 0, 15),
    );
  });
});
