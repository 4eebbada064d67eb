import type { RunForecast, RunLine } from '../../runs/index.js';
import { flag, JSON_OPTION, positiveIntOption, writeJson, type Command } from '../command.js';
import { platformOption, pipelineOnPlatformFilter } from '../platform-option.js';
import { textTable } from '../text-table.js';
import { withRedis } from '../with-redis.js';

const DEFAULT_LIMIT = 20;

/** `forecastText` is the runs layer's, passed in: this module loads no layer before run(). */
/** A time to the second, as the table shows times: 2026-11-26T03:10:42Z. */
function isoSeconds(iso: string): string {
  return iso.replace(/\.\d+Z$/, 'Z');
}

function table(lines: RunLine[], forecastText: (forecast: RunForecast) => string): string {
  const rows = [
    [
      'RUN',
      'PLATFORM',
      'KIND',
      'STATUS',
      'TRIGGER',
      'STARTED',
      'SECONDS',
      'SETTLED/PLANNED',
      'DELIVERED',
      'FAILED',
      'REJECTED',
      'NOTE',
    ],
    ...lines.map((l) => [
      l.runId,
      l.platform,
      l.kind,
      l.statusText,
      l.trigger,
      isoSeconds(l.startedAt),
      l.seconds === undefined ? '-' : l.seconds.toFixed(1),
      `${l.items.settled}/${l.items.planned}`,
      String(l.items.delivered),
      String(l.failedItems),
      String(l.rejected),
      [
        l.undoOf ? `undoes ${l.undoOf}` : undefined,
        l.replayOf ? `replays dead letters of ${l.replayOf.join(', ')}` : undefined,
        l.blockedReason,
        l.reason,
        l.lateSeconds ? `started ${l.lateSeconds} s after its tick` : undefined,
        l.forecast
          ? `${forecastText(l.forecast)}${l.forecast.finishAt ? `, ends ${isoSeconds(l.forecast.finishAt)}` : ''}`
          : undefined,
      ]
        .filter(Boolean)
        .join('; '),
    ]),
  ];
  return textTable(rows);
}

export const runsCommand: Command = {
  name: 'runs',
  usage: 'runs [--pipeline P] [--platform NAME] [--limit N] [--json]',
  description: [
    "Runs are kept for 30 days after they end (each run's full report is `ferry run --wait`'s, also",
    'written to delivery.reportsDir). `ferry status` shows the ones in progress.',
    '',
    'TRIGGER is what started the run: cli, schedule, http or replay. A tick of a schedule that',
    'started nothing (the previous run still going, a source that could not be read) shows as',
    'skipped, with the reason under NOTE.',
    '',
    'PLATFORM is the platform (shop) the run delivers to; a pipeline on another platform than',
    'default runs under NAME@PLATFORM (`--pipeline catalog@north`, or `--pipeline catalog',
    '--platform north`). --platform alone lists the runs of every pipeline on that platform.',
    '',
    "KIND is sync (a run of the pipeline's input), replay (dead letters sent again, NOTE names the",
    'runs they came from), undo (NOTE names the run it undoes), repair (what `ferry reconcile',
    '--repair` restores) or export. Only sync runs stand for their pipeline (its status, the',
    'last-success gauge). SETTLED counts the planned items that reached an outcome: delivered +',
    'failed + stale + cancelled, never more than planned; unchanged entities are not planned. A',
    'cancelled run shows "cancelling: N requests in flight" until they settle; a blocked run (the',
    'platform refuses every request) says why.',
    '',
    'A running run forecasts its end under NOTE: the requests it has left, the rate it achieved over',
    'the last minute and when that rate ends it ("measuring…" for its first seconds; docs/DELIVERY.md).',
    '',
    'With --json: [{runId, pipeline, platform, kind, trigger, startedBy?, status, statusText, blockedReason?,',
    'reason?, undoOf?, replayOf?, lateSeconds?, startedAt, finishedAt?, seconds?, plannedItems,',
    'deliveredItems, failedItems, items: {planned, settled, delivered, failed, stale, cancelled, unchanged},',
    'rejected, forecast?: {remainingRequests, requestsPerSecond?, finishAt?}}]. Exit 0; 2 bad',
    'usage (a platform the config does not declare); 5 when Redis does not answer.',
    '',
    'Examples:',
    '  ferry runs --pipeline catalog --limit 7',
    '  ferry runs --platform north',
  ].join('\n'),
  options: {
    pipeline: { type: 'string', placeholder: 'P', description: "Only this pipeline's runs." },
    ...platformOption('the runs'),
    limit: {
      type: 'string',
      placeholder: 'N',
      description: `At most N runs (default ${DEFAULT_LIMIT}).`,
    },
    ...JSON_OPTION,
  },
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery } = await import('../../queue/index.js');
    const { deliveryKeys, forecastText, recentRuns, lineOf } = await import('../../runs/index.js');
    const limit = positiveIntOption(args, 'limit') ?? DEFAULT_LIMIT;
    const config = getConfig();
    const only = await pipelineOnPlatformFilter(args, config);
    return await withRedis(
      () => connectDelivery(config.redis, 'the runs are recorded there'),
      async (redis) => {
        const runs = await recentRuns(redis, deliveryKeys(config.redis.prefix), {
          limit,
          ...only,
        });
        const now = Date.now();
        const lines = runs.map((run) => lineOf(run, now));
        if (flag(args, 'json')) await writeJson(stdout, lines);
        else stdout.write(lines.length > 0 ? `${table(lines, forecastText)}\n` : 'No runs.\n');
        return 0;
      },
    );
  },
};
