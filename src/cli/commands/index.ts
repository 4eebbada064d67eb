/**
 * Every command of the `ferry` binary, in the order `ferry --help` lists them: its name and
 * summary, and its module, loaded only when the command runs or shows its own help (so that
 * `ferry --help` loads none of them, nor what they import).
 */
import type { Command, DescribedCommand } from '../command.js';

export interface CommandEntry {
  /** One or two words: `operations`, `config check`, `dlq list`. */
  name: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'operations',
    summary: 'List the operations of the platform interface (all 31, or those of one listing).',
    load: async () => (await import('./operations.js')).operationsCommand,
  },
  {
    name: 'read',
    summary:
      'Show what a connector reads from a file: encoding, delimiter, header, records and lines.',
    load: async () => (await import('./read.js')).readCommand,
  },
  {
    name: 'plan',
    summary:
      'Show what a pipeline would send for a file: operations, items, requests, rejected records.',
    load: async () => (await import('./plan.js')).planCommand,
  },
  {
    name: 'run',
    summary:
      'Plan a pipeline and deliver it through the queue; with --wait, follow it to its report.',
    load: async () => (await import('./run.js')).runCommand,
  },
  {
    name: 'cancel',
    summary:
      'Stop a run: nothing more of it is sent; its pipeline is freed once its jobs in flight end.',
    load: async () => (await import('./cancel.js')).cancelCommand,
  },
  {
    name: 'undo',
    summary: 'Undo a finished run from its before-images, as a run of its own (--dry-run first).',
    load: async () => (await import('./undo.js')).undoCommand,
  },
  {
    name: 'resume',
    summary:
      'Let a run whose delivery is blocked (the platform refused everyone) send again at once.',
    load: async () => (await import('./resume.js')).resumeCommand,
  },
  {
    name: 'runs',
    summary: 'List the most recent runs, newest first: status, time, items delivered and failed.',
    load: async () => (await import('./runs.js')).runsCommand,
  },
  {
    name: 'export',
    summary:
      'Run an export pipeline: new orders, Z-reports or revenue into files the ERP imports, exactly once.',
    load: async () => (await import('./export.js')).exportCommand,
  },
  {
    name: 'reconcile',
    summary:
      "Compare what the platform holds with Ferry's state: missing, different, unknown; --repair restores it.",
    load: async () => (await import('./reconcile.js')).reconcileCommand,
  },
  {
    name: 'state rebind',
    summary:
      "Bind a pipeline's state to the platform configured now: the same platform at a new address (audited).",
    load: async () => (await import('./state-rebind.js')).stateRebindCommand,
  },
  {
    name: 'state rebuild',
    summary:
      "Rebuild a pipeline's lost state from what the platform holds, so the next run sends only changes.",
    load: async () => (await import('./state-rebuild.js')).stateRebuildCommand,
  },
  {
    name: 'worker',
    summary: 'Deliver queued runs: a long-running worker; start several to share the work.',
    load: async () => (await import('./worker.js')).workerCommand,
  },
  {
    name: 'status',
    summary: 'Show the delivery queues per lane, the runs in progress and the dead-letter count.',
    load: async () => (await import('./status.js')).statusCommand,
  },
  {
    name: 'platforms',
    summary:
      'List the platforms (shops) Ferry delivers to: address, listing, pin, rate, blocks, last runs.',
    load: async () => (await import('./platforms.js')).platformsCommand,
  },
  {
    name: 'serve',
    summary: 'Serve the operating console: JSON API, Prometheus metrics, health and readiness.',
    load: async () => (await import('./serve.js')).serveCommand,
  },
  {
    name: 'schedules',
    summary: 'List the scheduled pipelines: cron, time zone, next run, paused, last run.',
    load: async () => (await import('./schedules.js')).schedulesCommand,
  },
  {
    name: 'schedules sync',
    summary:
      'Bring the schedules in Redis in step with the pipeline files (workers do it at start).',
    load: async () => (await import('./schedules-sync.js')).schedulesSyncCommand,
  },
  {
    name: 'schedules pause',
    summary:
      "Pause a pipeline's schedule (a maintenance window): no tick runs until it is resumed.",
    load: async () => (await import('./schedules-pause.js')).schedulesPauseCommand,
  },
  {
    name: 'schedules resume',
    summary: "Resume a paused pipeline's schedule from its next tick.",
    load: async () => (await import('./schedules-pause.js')).schedulesResumeCommand,
  },
  {
    name: 'dlq list',
    summary: 'List dead letters (by pipeline, platform, run, operation or item key).',
    load: async () => (await import('./dlq-list.js')).dlqListCommand,
  },
  {
    name: 'dlq show',
    summary: 'Show one dead letter: its items with file and line, the request, the answer.',
    load: async () => (await import('./dlq-show.js')).dlqShowCommand,
  },
  {
    name: 'dlq replay',
    summary: 'Send dead letters again, optionally with edited payloads; stale ones are skipped.',
    load: async () => (await import('./dlq-replay.js')).dlqReplayCommand,
  },
  {
    name: 'dlq purge',
    summary: 'Delete dead letters for good (by id, a run, or all).',
    load: async () => (await import('./dlq-purge.js')).dlqPurgeCommand,
  },
  {
    name: 'dlq export',
    summary: 'Write dead letters to a CSV file (one row per item) for the people who fix the data.',
    load: async () => (await import('./dlq-export.js')).dlqExportCommand,
  },
  {
    name: 'trace',
    summary:
      'Why an entity is (not) on the platform: its state, the changes runs planned, its dead letters.',
    load: async () => (await import('./trace.js')).traceCommand,
  },
  {
    name: 'call',
    summary: 'Call one operation of the platform interface and print its answer.',
    load: async () => (await import('./call.js')).callCommand,
  },
  {
    name: 'config check',
    summary:
      'Validate the configuration (file and environment) and report every bad key by its path.',
    load: async () => (await import('./config-check.js')).configCheckCommand,
  },
  {
    name: 'interface check',
    summary:
      "Check the platform's OpenAPI description: operations, listing, bindings, pipelines and auth.",
    load: async () => (await import('./interface-check.js')).interfaceCheckCommand,
  },
  {
    name: 'interface pull',
    summary: "Pin the platform's OpenAPI description in Redis: what runs are checked against.",
    load: async () => (await import('./interface-pull.js')).interfacePullCommand,
  },
  {
    name: 'interface diff',
    summary: 'Show how the published description differs from the pinned one: breaking or not.',
    load: async () => (await import('./interface-diff.js')).interfaceDiffCommand,
  },
  {
    name: 'interface accept',
    summary: 'Pin the description as published now, once its changes are understood (audited).',
    load: async () => (await import('./interface-accept.js')).interfaceAcceptCommand,
  },
  {
    name: 'pipeline new',
    summary:
      "Write a pipeline for one described operation, mapping its properties to a sample file's columns.",
    load: async () => (await import('./pipeline-new.js')).pipelineNewCommand,
  },
  {
    name: 'simulator',
    summary: 'Serve a simulator of the platform interface (state, idempotency, faults) over HTTP.',
    load: async () => (await import('./simulator.js')).simulatorCommand,
  },
  {
    name: 'demo',
    summary:
      'Run Ferry end to end on this machine: simulator, queue, worker and the sample pipelines.',
    load: async () => (await import('./demo.js')).demoCommand,
  },
];

/** Every command, loaded, with its summary (for the generated docs). */
export async function describedCommands(): Promise<DescribedCommand[]> {
  return await Promise.all(
    COMMANDS.map(async (e) => ({ ...(await e.load()), summary: e.summary })),
  );
}
