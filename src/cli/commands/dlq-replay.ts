import { firstFew } from '../../base/index.js';
import type { DeadLetterSelection } from '../../queue/index.js';
import type { ReplayReport } from '../../orchestrate/index.js';
import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';

function replayText(report: ReplayReport): string {
  if (report.entries.length === 0) return 'No dead letters selected.\n';
  const lines = report.entries.map(
    (e) =>
      `  ${e.id} ${e.operationId} [${firstFew(e.keys)}]${e.edited ? ' (edited)' : ''}: ${e.outcome}` +
      (e.deadLetterId
        ? ` -> dead letter ${e.deadLetterId} (\`ferry dlq show ${e.deadLetterId}\`)`
        : ''),
  );
  const head = report.dryRun
    ? `Dry run: ${report.entries.length} dead letter(s) would be replayed; nothing was sent.`
    : `Replayed ${report.entries.length} dead letter(s): ${report.delivered} delivered, ` +
      `${report.stale} skipped as stale, ${report.failed} failed again.`;
  return `${head}\n${lines.join('\n')}\n`;
}

export const dlqReplayCommand: Command = {
  name: 'dlq replay',
  usage: 'dlq replay <ID>... | --run R | --all [--payloads FILE] [--dry-run] [--json]',
  description: [
    'Replays the selected dead letters as a run of their own (lane interactive), with a worker in',
    'this process (--no-local-worker leaves it to `ferry worker`s), and waits for the outcome. An',
    'entry whose items are older than what was applied since is skipped as stale. A replay that',
    'fails again becomes a new dead letter.',
    '',
    '--payloads FILE replaces item payloads by key: a JSON object {"<key>": payload}, a JSON array',
    'or NDJSON of {"key", "payload", "operationId"?} (operationId narrows the edit to one',
    'operation). An edit is checked before anything is sent: against the request schema of the',
    "platform's description (interface.openapi), else against Ferry's resource schemas.",
    '--dry-run shows what would be sent or skipped and sends nothing.',
    '',
    'With --json: {dryRun, entries: [{id, operationId, keys, edited, outcome, deadLetterId?}],',
    'runs, delivered, stale, failed}. Exit codes: 0 nothing failed again; 1 some replays failed;',
    '2 bad usage (unknown id, bad payloads file) or config.',
  ].join('\n'),
  options: {
    run: { type: 'string', placeholder: 'R', description: 'Replay the dead letters of this run.' },
    all: { type: 'boolean', description: 'Replay every dead letter.' },
    payloads: {
      type: 'string',
      placeholder: 'FILE',
      description: 'Edited payloads by key (JSON or NDJSON).',
    },
    'dry-run': { type: 'boolean', description: 'Show what would be replayed; send nothing.' },
    'no-local-worker': {
      type: 'boolean',
      description: 'Leave the replay to `ferry worker` processes (and wait for it).',
    },
    ...JSON_OPTION,
  },
  positionals: [0, 1000],
  async run({ args, stdout, stderr, config, logger, startTracing, stopSignal }) {
    const { readEditedPayloads, checkSelection } = await import('../../queue/index.js');
    const { replayDeadLetters } = await import('../../orchestrate/index.js');
    const selection: DeadLetterSelection = {};
    if (args.positionals.length > 0) selection.ids = args.positionals;
    const run = stringOption(args, 'run');
    if (run !== undefined) selection.runId = run;
    if (flag(args, 'all')) selection.all = true;
    checkSelection(selection, 'dlq replay');
    const file = stringOption(args, 'payloads');
    await startTracing();
    const report = await replayDeadLetters({
      config: config(),
      logger: logger(),
      selection,
      ...(file !== undefined ? { payloads: readEditedPayloads(file) } : {}),
      dryRun: flag(args, 'dry-run'),
      localWorker: !flag(args, 'no-local-worker'),
      progress: stderr,
      signal: stopSignal,
    });
    if (flag(args, 'json')) await writeJson(stdout, report);
    else stdout.write(replayText(report));
    return report.failed > 0 ? 1 : 0;
  },
};
