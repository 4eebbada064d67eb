/**
 * The programs some tests start, each with the Debian package that installs it: the README's test
 * prerequisites, which `.ci/run` installs where they are missing (test/ci/prerequisites.test.ts
 * keeps the three lists in step).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const PACKAGES = {
  'redis-server': 'redis-server',
  'redis-cli': 'redis-server',
  sshd: 'openssh-server',
  'ssh-keygen': 'openssh-client',
  chromium: 'chromium',
} as const;

export type Binary = keyof typeof PACKAGES;

/** Another way than the package to give a test the program. */
const OR: Partial<Record<Binary, string>> = { chromium: ' or set CHROMIUM_PATH' };

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of `name` (at `path` when given, else on PATH); throws naming the program and the
 * package that installs it, so a test on a machine without it fails saying what to install.
 */
export function requireBinary(
  name: Binary,
  path?: string,
  searchPath = process.env.PATH ?? '',
): string {
  const found = path
    ? [path].filter(executable)
    : searchPath
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name))
        .filter(executable);
  if (found[0] !== undefined) return found[0];
  throw new Error(
    `${name} not found${path ? ` at ${path}` : ' on PATH'}: apt-get install ${PACKAGES[name]}${OR[name] ?? ''} ` +
      '(bash .ci/run installs the tests\' prerequisites; README, "The two commands")',
  );
}
