import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';

function sink(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stream, lines };
}

describe('createLogger', () => {
  it('writes JSON lines and redacts secrets by path, wherever they sit', () => {
    const out = sink();
    const logger = createLogger({ format: 'json', destination: out.stream });
    logger.info(
      {
        interface: { auth: { type: 'bearer', token: 'tok-SECRET' } },
        headers: { authorization: 'Bearer tok-SECRET' },
        oauth: { clientSecret: 'cs-SECRET' },
        password: 'pw-SECRET',
        key: '007728',
      },
      'calling',
    );
    const text = JSON.stringify(out.lines());
    expect(text).not.toMatch(/SECRET/);
    expect(out.lines()[0]?.msg).toBe('calling');
    // An entity key is data, not a secret: it stays readable.
    expect(out.lines()[0]?.key).toBe('007728');
  });

  it('child loggers carry their bindings and stay quiet below the level', () => {
    const out = sink();
    const logger = createLogger({ format: 'json', level: 'warn', destination: out.stream });
    const child = logger.child({ runId: 'r1' });
    child.info('not shown');
    child.warn('shown');
    expect(out.lines()).toEqual([expect.objectContaining({ runId: 'r1', msg: 'shown' })]);
  });
});
