/**
 * What `ferry` prints for people: `ferry run --wait` puts no JSON log line beside its report
 * (FERRY_LOG_LEVEL still asks for them); the top-level help lists every exit code and what
 * `serve` offers; `ferry dlq --help` exits 0 without an error line; a mistyped command, option
 * or pipeline name gets "did you mean"; `ferry dlq list` prints aligned columns.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import type { DeadLetter } from '../../src/runs/dead-letters/dead-letter.js';
import { deadLetterTable } from '../../src/runs/dead-letters/dead-letter-views.js';
import { runFerryHere, writeConfigFile } from '../queue/cli-process.js';
import { useDeliveryHarness } from '../queue/delivery-fixtures.js';

async function ferry(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (chunks: string[]) =>
    new Writable({
      write(chunk, _enc, done) {
        chunks.push(String(chunk));
        done();
      },
    });
  const code = await main(args, { stdout: sink(out), stderr: sink(err), env: {} });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

describe('ferry run --wait', () => {
  const h = useDeliveryHarness('cli-people', { seed: 5 });

  /** A config at the default log level (info), JSON log format. */
  function infoConfig(): string {
    const file = writeConfigFile(h.dir, h.prefix, h.sim.url);
    writeFileSync(file, readFileSync(file, 'utf8').replace('level: warn', 'level: info'));
    return file;
  }

  /**
   * `ferry ARGS` in this process (main()), with whatever else was written meanwhile to this
   * process's stdout, stderr or console (where a logger of its own would print, beside the report).
   */
  async function runBeside(args: string[], extraEnv: NodeJS.ProcessEnv = {}) {
    const beside: string[] = [];
    const note = (...what: unknown[]) => void beside.push(what.map(String).join(' '));
    const spies = [
      ...[process.stdout, process.stderr].map((s) =>
        vi.spyOn(s, 'write').mockImplementation((chunk: unknown) => (note(chunk), true)),
      ),
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((m) =>
        vi.spyOn(console, m).mockImplementation(note),
      ),
    ];
    try {
      const run = await runFerryHere(args, infoConfig(), extraEnv);
      return { ...run, beside: beside.join('\n') };
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  }

  it('prints its report without JSON log lines; FERRY_LOG_LEVEL=info brings them back', async () => {
    const args = ['run', 'stores', '--file', 'examples/stores.csv', '--wait'];
    const quiet = await runBeside(args);
    expect(quiet.code).toBe(1); // the sample has two rejected rows
    expect(quiet.stdout).toContain('Run stores-');
    const lines = `${quiet.stdout}${quiet.stderr}${quiet.beside}`.split('\n');
    expect(lines.filter((l) => l.trimStart().startsWith('{'))).toEqual([]);

    const loud = await runBeside(args, { FERRY_LOG_LEVEL: 'info' });
    expect(loud.code).toBe(1);
    expect(loud.stderr).toMatch(/^\{"level":30,/m);
  });
});

describe('help and mistakes', () => {
  it('lists every exit code and what serve offers in the top-level help', async () => {
    const { code, stdout } = await ferry(['--help']);
    expect(code).toBe(0);
    for (const exit of [0, 1, 2, 3, 4, 5])
      expect(stdout).toMatch(new RegExp(`^  ${exit}  \\S`, 'm'));
    expect(stdout).toContain('/api/openapi.json');
    expect(stdout).toContain('/metrics');
  });

  it('answers `ferry dlq --help` with the subcommands, exit 0 and no error', async () => {
    const { code, stdout, stderr } = await ferry(['dlq', '--help']);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toContain('ferry dlq has subcommands: dlq list, dlq show');
    expect(stdout).toContain('Usage: ferry dlq replay');
    const bare = await ferry(['dlq']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('needs a subcommand');
  });

  it('says "did you mean" for a mistyped command, subcommand, option and pipeline', async () => {
    const command = await ferry(['rnu', 'catalog']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('Did you mean "run"?');
    const sub = await ferry(['dlq', 'lsit']);
    expect(sub.stderr).toContain('Did you mean "dlq list"?');
    const option = await ferry(['runs', '--pipline', 'catalog']);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain("Unknown option '--pipline'. Did you mean --pipeline?");
    const pipeline = await ferry(['trace', 'catalgo', 'A100']);
    expect(pipeline.code).toBe(2);
    expect(pipeline.stderr).toContain('Did you mean "catalog"?');
    const planned = await ferry(['plan', 'catalg', '--file', 'examples/items.csv']);
    expect(planned.code).toBe(2);
    expect(planned.stderr).toContain('Did you mean "catalog"?');
    // Nothing close: no guess.
    const far = await ferry(['trace', 'zzzzzzzzzz', 'A100']);
    expect(far.stderr).not.toContain('Did you mean');
  });
});

describe('ferry dlq list', () => {
  const letter = (id: string, operationId: string, key: string, status?: number): DeadLetter =>
    ({
      id,
      runId: 'catalog-20260101T000000-aaaa',
      pipeline: 'catalog',
      operationId,
      pathParams: {},
      idempotencyKey: 'k',
      items: [{ key, version: 1, payload: {}, source: { file: 'items.csv', line: 12 } }],
      request: { method: 'PUT', path: '/x', headers: {} },
      ...(status === undefined ? {} : { status }),
      errorCode: status === undefined ? 'FERRY_HTTP_TIMEOUT' : 'FERRY_HTTP_PERMANENT',
      message: 'refused',
      attempts: 1,
      at: Date.parse('2026-01-01T00:00:00Z'),
      jobId: 'j',
    }) as unknown as DeadLetter;

  it('prints its columns aligned under their headings', () => {
    const text = deadLetterTable([
      letter('d1', 'products.prices.patch', 'A200', 422),
      letter('d0123456789abcdef', 'stores.put', '00042'),
    ]);
    const [head, first, second] = text.split('\n');
    for (const column of ['at', 'operation', 'keys', 'source', 'status', 'code']) {
      const at = head!.indexOf(` ${column}`) + 1;
      expect(first![at - 1]).toBe(' ');
      expect(first![at]).not.toBe(' ');
      expect(second![at]).not.toBe(' ');
    }
  });
});
