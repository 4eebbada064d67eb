import { UsageError } from '../../errors/index.js';
import type { Lane, RunReport } from '../../runs/index.js';
import type { SourceSpec } from '../../pipeline/index.js';
import {
  flag,
  JSON_OPTION,
  stringList,
  stringOption,
  writeJson,
  type Command,
} from '../command.js';
import {
  allowDeletes,
  PLATFORM_OPTION,
  FILE_OPTION,
  LOOKUP_OPTION,
  lookupFiles,
  sourceOf,
} from '../pipeline-options.js';

function laneOption(text: string | undefined, lanes: readonly Lane[]): Lane | undefined {
  if (text === undefined) return undefined;
  if (!lanes.includes(text as Lane)) {
    throw new UsageError(`--lane must be ${lanes.join(' or ')}, got "${text}".`);
  }
  return text as Lane;
}

export const runCommand: Command = {
  name: 'run',
  usage:
    'run <pipeline> [--platform NAME] [--file F] [--lookup NAME=PATH]... [--wait [--no-local-worker]] [--lane bulk|interactive] [--json] [--allow-deletes N|all] [--allow-guard RUN] [--resend-all]',
  description: [
    'Plans the pipeline (as `ferry plan`), puts its requests on the delivery queue of its lane and',
    'releases its stages in order (stage n+1 once stage n has settled). One run per pipeline at a',
    'time: a second is refused (FERRY_RUN_ACTIVE) while one is in progress. `ferry cancel <runId>`',
    'stops a run.',
    '',
    'Without --wait the run is left to `ferry worker` processes and the command prints the run id.',
    'With --wait it follows the run to its end (a progress bar on a terminal, progress lines',
    'otherwise, on stderr), prints the report and writes it to delivery.reportsDir as',
    '<runId>.json and <runId>-failures.csv. --wait runs a worker in this process, so nothing else',
    'needs to be running; --no-local-worker leaves the work to the `ferry worker`s instead.',
    '',
    'With --json: {runId, status, operations: {id: {planned, delivered, failed, skipped, stale}},',
    'errors, deadLettered, ...}. Exit codes: 0 every item delivered; 1 some items were dead-lettered',
    'or records rejected (or the mass-delete guard stopped the run, or another run is active);',
    "2 bad usage or config, the pipeline's state belongs to another platform (see below), or the",
    "platform's description changed since it was pinned in a way that breaks the pipeline",
    '(FERRY_CONTRACT_BREAKING, recorded as a failed run; nothing was sent: see',
    '`ferry interface diff`); 3 Redis lost its data while the run was followed (the run is gone);',
    '4 stopped by Ctrl-C or SIGTERM: while following, the command detaches at once and the run',
    'goes on in the workers; while planning, nothing was sent and the pipeline is free; 5 Redis,',
    'the platform (its description, read again before a run once pinned) or a remote --file',
    '(sftp://, s3://, http(s)://) could not be reached: try again later.',
    '',
    'After Redis lost its data (restarted empty, failed over to an empty replica, flushed), the',
    "pipeline's state is gone, and a run would resend everything the pipeline delivered before: it",
    'stops before sending (FERRY_STATE_LOST), saying how much that is, until --resend-all is given',
    'once.',
    '',
    "The pipeline's state belongs to the platform it was delivered to (its base URL). A run against",
    'another one (FERRY_BASE_URL changed, same FERRY_PREFIX) stops before planning, exit 2',
    '(FERRY_STATE_OTHER_PLATFORM): `ferry state rebind` when it is the same platform at a new',
    'address, `ferry state rebuild --from-platform` or --resend-all (the state starts over on the new',
    'platform and everything is sent) when it is another.',
    '',
    'A pipeline that fans out to several platforms (`platforms: [north, south]`, docs/PLATFORMS.md)',
    'starts one run per platform, each planned against its own state, and with --wait follows them',
    'all; --json then prints {pipeline, runs: [report, ...]} and the exit code is the worst of',
    "the runs'. --platform NAME (or the name catalog@north) runs one platform's only.",
    '',
    'A run the value guards stopped (status guard_stopped: prices moved too far, fields emptied,',
    'too few rows; its samples show old and new values) sends nothing. If the export is right,',
    '--allow-guard RUN sends exactly the plan run RUN stopped, once: it reads again the input run',
    'RUN kept (a copy, kept undo.retentionDays, whatever it read: a file, an upload, a picked-up',
    'file, a URL), or --file when given, against the same state (a different plan is refused,',
    'FERRY_GUARD_ALLOW). With serve.fourEyes the CLI cannot allow (it has no operator name): an',
    'operator other than the starter allows it in the console. Allows and refusals are audited.',
    '',
    'Examples:',
    '  ferry run catalog --file examples/items.csv --wait',
    '  ferry run stores --wait --json',
    '  ferry run catalog --platform north --wait',
  ].join('\n'),
  options: {
    ...PLATFORM_OPTION,
    ...FILE_OPTION,
    ...LOOKUP_OPTION,
    wait: { type: 'boolean', description: 'Follow the run to its end and print its report.' },
    'no-local-worker': {
      type: 'boolean',
      description: 'With --wait: leave the work to `ferry worker` processes.',
    },
    'allow-deletes': {
      type: 'string',
      placeholder: 'N|all',
      description: 'Let this run delete up to N entities (or all) past the mass-delete guard.',
    },
    'allow-guard': {
      type: 'string',
      placeholder: 'RUN',
      description: 'Send the plan the value guards stopped in run RUN, once.',
    },
    'resend-all': {
      type: 'boolean',
      description:
        'After Redis lost its data (`ferry status` says so), or when the state belongs to ' +
        'another platform: send everything this run plans, once.',
    },
    lane: {
      type: 'string',
      placeholder: 'bulk|interactive',
      description: 'The queue lane (default: delivery.pipelineLanes, else delivery.lane).',
    },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  reportsToPeople: (values) => values.wait === true,
  async run({ args, stdout, stderr, config, contractConfig, logger, startTracing, stopSignal }) {
    const { isRemoteAddress } = await import('../../../connectors/index.js');
    const { loadPipeline, boundHeapGrowth, pipelineTargets } =
      await import('../../pipeline/index.js');
    const { LANES, cliActor, reportText, isFinishedStatus } = await import('../../runs/index.js');
    const { executeRun } = await import('../../orchestrate/index.js');
    const { startDeliveryWorker } = await import('../../queue/index.js');
    boundHeapGrowth(); // planning a large export: as `ferry plan` does
    const named = args.positionals[0] as string;
    const targets = pipelineTargets(named, config(), stringOption(args, 'platform'));
    const file = stringOption(args, 'file');
    // A remote address on the pipeline's own server takes its connection settings from it.
    const base =
      file && isRemoteAddress(file)
        ? loadPipeline(targets[0] as string, config()).source
        : undefined;
    const wait = flag(args, 'wait');
    const allowGuard = stringOption(args, 'allow-guard');
    if (flag(args, 'no-local-worker') && !wait) {
      throw new UsageError('--no-local-worker goes with --wait.');
    }
    if (targets.length > 1 && (allowGuard || file === '-')) {
      throw new UsageError(
        `${named} delivers to ${targets.join(', ')}: ${allowGuard ? '--allow-guard' : '--file -'} takes one platform's run (add --platform NAME).`,
      );
    }
    const runConfig = await contractConfig();
    await startTracing();
    const lane = laneOption(stringOption(args, 'lane'), LANES);
    const fanOut = targets.length > 1;
    // One worker in this process serves every platform's run of a fan-out.
    const localWorker = wait && !flag(args, 'no-local-worker');
    const worker =
      fanOut && localWorker
        ? await startDeliveryWorker({ config: runConfig, logger: logger() })
        : undefined;
    const runOne = async (pipeline: string) =>
      executeRun({
        config: runConfig,
        logger: logger(),
        pipeline,
        // Each run reads its own copy: a fan-out reads the file once per platform.
        ...(file ? { source: (await sourceOf(file, base)) as SourceSpec, sourceName: file } : {}),
        allowDeletes: allowDeletes(stringOption(args, 'allow-deletes')),
        ...(allowGuard
          ? {
              allowGuard: {
                stoppedRunId: allowGuard,
                by: cliActor(),
                fourEyes: config().serve.fourEyes,
              },
            }
          : {}),
        lookupFiles: lookupFiles(stringList(args, 'lookup')),
        resendAll: flag(args, 'resend-all'),
        ...(lane ? { lane } : {}),
        wait,
        localWorker: localWorker && !fanOut,
        // A fan-out's runs go on side by side: one progress bar each would overwrite the others.
        ...(fanOut ? {} : { progress: stderr }),
        signal: stopSignal,
      });
    const exitOf = (report: RunReport): number => {
      if (!isFinishedStatus(report.status)) {
        if (wait) {
          const local = flag(args, 'no-local-worker')
            ? ''
            : " This process's worker stopped: with no `ferry worker` running, start one to finish it.";
          stderr.write(
            `Detached from run ${report.runId}: it goes on in the queue. Follow it with ` +
              `\`ferry runs --pipeline ${report.pipeline}\` or \`ferry status\`; stop it with ` +
              `\`ferry cancel ${report.runId}\`.${local}\n`,
          );
          return 4;
        }
        return report.rejected > 0 ? 1 : 0;
      }
      return report.status === 'succeeded' ? 0 : 1;
    };
    if (!fanOut) {
      const report = await runOne(targets[0] as string);
      if (flag(args, 'json')) await writeJson(stdout, report);
      else stdout.write(reportText(report));
      return exitOf(report);
    }
    if (wait) stderr.write(`${named}: one run per platform (${targets.join(', ')})...\n`);
    const settled = await Promise.allSettled(targets.map(runOne)).finally(() =>
      worker?.close(stopSignal.aborted ? 500 : undefined),
    );
    const reports: RunReport[] = [];
    let code = 0;
    settled.forEach((outcome, i) => {
      if (outcome.status === 'fulfilled') {
        reports.push(outcome.value);
        code = Math.max(code, exitOf(outcome.value));
        return;
      }
      // One platform's run that could not start leaves the others' runs going.
      const error = outcome.reason as { message?: string; exitCode?: number };
      stderr.write(`${targets[i]}: ${error.message ?? String(outcome.reason)}\n`);
      code = Math.max(code, typeof error.exitCode === 'number' ? error.exitCode : 1);
    });
    if (flag(args, 'json')) await writeJson(stdout, { pipeline: named, runs: reports });
    else stdout.write(reports.map((r) => reportText(r)).join('\n'));
    return code;
  },
};
