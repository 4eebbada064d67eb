/**
 * Options shared by `ferry plan` and `ferry run`: the --file source override, --lookup file
 * overrides and --allow-deletes.
 */
import { resolve } from 'node:path';
import { UsageError } from '../errors/index.js';
import type { AllowDeletes } from '../pipeline/plan-pipeline.js';
import type { SourceSpec } from '../pipeline/source/read-records.js';
import type { OptionSpec } from './command.js';

export const FILE_OPTION: Record<string, OptionSpec> = {
  file: {
    type: 'string',
    placeholder: 'F',
    description: "The input (a path, - for stdin, or a URL). Default: the pipeline's source.",
  },
};

/** --file: `-` is stdin, an http(s) URL is fetched, anything else is a local file. */
export function sourceOf(file: string | undefined): SourceSpec | undefined {
  if (file === undefined) return undefined;
  if (file === '-') return { stdin: true };
  if (/^https?:\/\//i.test(file)) return { url: file };
  return { file: resolve(file) };
}

export const LOOKUP_OPTION: Record<string, OptionSpec> = {
  lookup: {
    type: 'string',
    multiple: true,
    placeholder: 'NAME=PATH',
    description: "Read the file lookup NAME from PATH for this run instead of the pipeline's file.",
  },
};

/** --lookup NAME=PATH, repeatable -> name -> absolute path. */
export function lookupFiles(pairs: readonly string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0 || eq === pair.length - 1) {
      throw new UsageError(
        `--lookup takes NAME=PATH (e.g. --lookup productNames=ProductTexts.csv), got "${pair}".`,
      );
    }
    files[pair.slice(0, eq)] = resolve(pair.slice(eq + 1));
  }
  return files;
}

export function allowDeletes(text: string | undefined): AllowDeletes {
  if (text === undefined) return false;
  if (text === 'all') return true;
  if (!/^\d+$/.test(text)) {
    throw new UsageError(`--allow-deletes takes a number of deletes or "all", got "${text}".`);
  }
  return Number(text);
}
