/**
 * A variable of the environment, or the contents of the file named by `NAME_FILE` (docker and
 * Kubernetes secrets mount a file per secret). The variable itself wins when both are set; one
 * trailing newline of the file is dropped (editors and `echo` add one). Messages name variables
 * and files, never their contents.
 */
import { readFileSync } from 'node:fs';

export type EnvValue =
  { value: string; from: 'env' | 'file' } | { value: undefined; problem?: string };

export function envValue(env: NodeJS.ProcessEnv, name: string): EnvValue {
  const direct = env[name];
  if (direct !== undefined) return { value: direct, from: 'env' };
  const file = env[`${name}_FILE`];
  if (file === undefined || file === '') return { value: undefined };
  try {
    return { value: readFileSync(file, 'utf8').replace(/\r?\n$/, ''), from: 'file' };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    return {
      value: undefined,
      problem: `${name}_FILE names ${file}, which cannot be read (${code})`,
    };
  }
}

/** The value, or undefined when neither NAME nor NAME_FILE gives one; a bad NAME_FILE throws. */
export function envSecret(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const found = envValue(env, name);
  if (found.value === undefined && 'problem' in found && found.problem) {
    throw new Error(found.problem);
  }
  return found.value;
}
