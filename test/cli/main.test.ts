import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';

function capture(): { stream: Writable; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => chunks.join('') };
}

async function run(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const out = capture();
  const err = capture();
  const code = await main(argv, { stdout: out.stream, stderr: err.stream, env });
  return { code, stdout: out.text(), stderr: err.text() };
}

describe('ferry main', () => {
  it('lists the 31 operations as JSON, and those of listing B', async () => {
    const all = await run(['operations', '--json']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toHaveLength(31);
    const b = await run(['operations', '--listing', 'B', '--json']);
    const ids = (JSON.parse(b.stdout) as { id: string }[]).map((o) => o.id);
    expect(ids).toHaveLength(27);
    expect(ids).toContain('partner.signup.post');
  });

  it('exits 2 on an unknown flag and on an unknown command, saying what to do', async () => {
    const flag = await run(['operations', '--listng', 'A']);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--help/);
    const cmd = await run(['nonsense']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/ferry --help/);
  });

  it('gives every command a --help that exits 0', async () => {
    const help = await run(['operations', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: ferry operations/);
  });

  it('config check exits 2 naming the bad key, and prints the error as JSON with --json', async () => {
    const bad = await run(['config', 'check', '--json'], { FERRY_LISTING: 'Z' });
    expect(bad.code).toBe(2);
    const doc = JSON.parse(bad.stdout) as { error: { code: string; issues: { path: string }[] } };
    expect(doc.error.code).toBe('FERRY_CONFIG_INVALID');
    expect(doc.error.issues[0]?.path).toBe('interface.listing (from FERRY_LISTING)');
    const good = await run(['config', 'check']);
    expect(good.code).toBe(0);
  });

  it("exits 70 for an unexpected exception, a fault of Ferry's own: never 1 (records rejected)", async () => {
    // A stdout that breaks as a bug would: a plain exception, not a FerryError.
    const broken = {
      write: () => {
        throw new TypeError('cannot write');
      },
    } as unknown as Writable;
    const err = capture();
    const code = await main(['operations', '--json'], {
      stdout: broken,
      stderr: err.stream,
      env: {},
    });
    expect(code).toBe(70);
    expect(err.text()).toMatch(/unexpected error.*exit 70.*TypeError: cannot write/s);
  });
});
