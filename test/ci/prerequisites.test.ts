/**
 * The programs the tests start: each named with its package when missing, and the packages the
 * same in test/helpers/binaries.ts, in what `.ci/run` installs and in the README.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load-config.js';
import { PACKAGES, requireBinary } from '../helpers/binaries.js';

const read = (file: string): string => readFileSync(`${PROJECT_ROOT}/${file}`, 'utf8');

/** The packages of every `apt-get install` in .ci/run. */
function ciPackages(): string[] {
  return [...read('.ci/run').matchAll(/apt-get install ([^>\n]+)/g)].flatMap((m) =>
    m[1]!.split(/\s+/).filter((word) => word !== '' && !word.startsWith('-')),
  );
}

describe("the tests' prerequisites", () => {
  it('name the program and its package when one is missing', () => {
    expect(() => requireBinary('sshd', '/nonexistent/sshd')).toThrow(
      'sshd not found at /nonexistent/sshd: apt-get install openssh-server',
    );
    expect(() => requireBinary('ssh-keygen', undefined, '/nonexistent')).toThrow(
      'ssh-keygen not found on PATH: apt-get install openssh-client',
    );
    expect(() => requireBinary('chromium', '/nonexistent/chromium')).toThrow(
      'apt-get install chromium or set CHROMIUM_PATH',
    );
    expect(requireBinary('redis-server')).toMatch(/\/redis-server$/);
  });

  it('are what .ci/run installs, and the README names them all', () => {
    const installed = ciPackages();
    expect(installed).toEqual(expect.arrayContaining(Object.values(PACKAGES)));
    const readme = read('README.md');
    for (const name of [...installed, ...Object.keys(PACKAGES), 'promtool']) {
      expect(readme, name).toContain(`\`${name}\``);
    }
  });
});
