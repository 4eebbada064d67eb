import type { ConfigIssue } from './error-details.js';
import { FerryError } from './ferry-error.js';

/** A configuration file or environment variable that does not validate. Exit code 2. */
export class ConfigError extends FerryError<'FERRY_CONFIG_INVALID'> {
  readonly code = 'FERRY_CONFIG_INVALID';
  override readonly exitCode = 2;
  readonly issues: readonly ConfigIssue[];

  constructor(source: string, issues: ConfigIssue[]) {
    const lines = issues.map((i) => `  ${i.path || '(root)'}: ${i.message}`).join('\n');
    super(`Invalid configuration in ${source}:\n${lines}`, { source, issues });
    this.issues = issues;
  }
}
