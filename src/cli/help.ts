import type { DescribedCommand } from './command.js';
import type { CommandEntry } from './commands/index.js';
import { COMMON_OPTIONS } from './command.js';

export function commandHelp(command: DescribedCommand): string {
  const options = { ...command.options, ...COMMON_OPTIONS };
  const rows = Object.entries(options).map(([name, spec]) => {
    const flag = `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` ${spec.placeholder ?? 'VALUE'}` : ''}`;
    const repeat = spec.multiple ? ' (repeatable)' : '';
    return `  ${flag.padEnd(34)} ${spec.description}${repeat}`;
  });
  return [
    `Usage: ferry ${command.usage}`,
    '',
    command.summary,
    ...(command.description ? ['', command.description.trim()] : []),
    '',
    'Options:',
    ...rows,
    '',
  ].join('\n');
}

export function globalHelp(commands: readonly CommandEntry[]): string {
  const rows = commands.map((c) => `  ${c.name.padEnd(18)} ${c.summary}`);
  return [
    'Usage: ferry <command> [options]',
    '',
    'Ferry keeps a commerce platform in step with an ERP: it reads exports, plans what changed,',
    'and delivers it through Redis queues to the platform interface.',
    '',
    'Commands:',
    ...rows,
    '',
    '`ferry serve` is the operating console (default http://127.0.0.1:8787): pages for people',
    '(overview, runs, dead letters, entity trace, the queue board, audit), the JSON API under',
    '/api (described at /api/openapi.json), /metrics for Prometheus, /healthz and /readyz.',
    '',
    "Run `ferry <command> --help` for a command's options.",
    '',
    'Exit codes:',
    '  0  success: everything was done (delivered)',
    '  1  the command ran and found failures: rows rejected, items dead-lettered, drift',
    '  2  bad usage or configuration (the message names the option or config key)',
    '  3  Redis lost its data while a run was followed (see docs/DELIVERY.md)',
    '  4  stopped by Ctrl-C or SIGTERM (a run goes on in the workers; `ferry runs` follows it)',
    '  5  Redis or the platform could not be reached: try again later',
    "  70 a fault of Ferry's own (an unexpected error, a bug): its message and stack on stderr",
    '  141 the reader of stdout went away (`ferry ... | head`), as SIGPIPE ends a process',
    '',
  ].join('\n');
}
