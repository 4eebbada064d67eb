import type { z } from 'zod';
import type { ConfigIssue } from '../errors/index.js';

/** zod issues -> {path, message} with dotted paths, the form every config error is reported in. */
export function formatIssues(
  error: z.ZodError,
  basePath: readonly (string | number)[] = [],
): ConfigIssue[] {
  return error.issues.flatMap((issue) => {
    const path = [...basePath, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        path: [...path, key].join('.'),
        message: 'unknown key (check its spelling; see docs/CONFIGURATION.md)',
      }));
    }
    return [{ path: path.join('.'), message: issue.message }];
  });
}
