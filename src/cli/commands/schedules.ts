import type { Queue } from 'bullmq';
import type { FerryConfig } from '../../config/index.js';
import type { RedisClient } from '../../redis/index.js';
import type { ScheduleView, TickData } from '../../schedules/index.js';
import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { withRedis } from '../with-redis.js';

/** Runs `use` with a delivery connection and the schedule queue, closing both after. */
export async function withScheduleQueue<T>(
  config: FerryConfig,
  use: (redis: RedisClient, queue: Queue<TickData>) => Promise<T>,
): Promise<T> {
  const { connectDelivery } = await import('../../queue/index.js');
  const { deliveryKeys } = await import('../../runs/index.js');
  const { openScheduleQueue } = await import('../../schedules/index.js');
  return await withRedis(
    () => connectDelivery(config.redis, 'the schedules are kept there'),
    async (redis) => {
      const queue = openScheduleQueue(redis, deliveryKeys(config.redis.prefix));
      try {
        return await use(redis, queue);
      } finally {
        await queue.close();
      }
    },
  );
}

/**
 * Each platform's last run: `partial (schedule) 2026-12-07T02:00:00Z`, named by the pipeline's
 * name there (`catalog: ...; catalog@north: ...`) unless it is the file's one run on default.
 */
function lastRunsText(view: ScheduleView): string {
  if (view.lastRuns.length === 0) return '-';
  return view.lastRuns
    .map((r) => {
      const alone = view.lastRuns.length === 1 && r.pipeline === view.pipeline;
      const named = alone ? '' : `${r.pipeline}: `;
      return `${named}${r.status} (${r.trigger}) ${r.startedAt.replace(/\.\d+Z$/, 'Z')}`;
    })
    .join('; ');
}

function table(views: ScheduleView[]): string {
  const rows = [
    ['PIPELINE', 'CRON', 'TZ', 'NEXT RUN', 'LAST RUN'],
    ...views.map((v) => [
      v.pipeline,
      v.cron,
      v.tz,
      v.paused ? 'paused' : (v.nextRunAt?.replace(/\.\d+Z$/, 'Z') ?? 'not synced: start a worker'),
      lastRunsText(v),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export const schedulesCommand: Command = {
  name: 'schedules',
  usage: 'schedules [--json]',
  description: [
    'A pipeline file with `schedule: {cron: "0 2 * * *", tz: "Europe/Berlin"}` is run by the',
    '`ferry worker`s at each tick (docs/SCHEDULES.md). NEXT RUN comes from the schedule in Redis:',
    '"not synced" until a worker (or `ferry schedules sync`) has put it there.',
    '',
    'LAST RUN is the last run on each platform the pipeline delivers to (docs/PLATFORMS.md), each',
    'named (`catalog: ...; catalog@north: ...`) unless it is one run on the default platform.',
    '',
    'With --json: [{pipeline, cron, tz, nextRunAt, paused, lastRuns: [{pipeline, runId, status,',
    'trigger, startedAt, finishedAt?, reason?}], lastRun?: the newest of them}]. Exit 0; 1 when',
    'Redis does not answer; 2 bad config.',
  ].join('\n'),
  options: { ...JSON_OPTION },
  async run({ args, stdout, config: getConfig }) {
    const { listSchedules } = await import('../../schedules/index.js');
    const config = getConfig();
    const views = await withScheduleQueue(config, (redis, queue) =>
      listSchedules(config, redis, queue),
    );
    if (flag(args, 'json')) await writeJson(stdout, views);
    else stdout.write(views.length > 0 ? `${table(views)}\n` : 'No pipeline has a schedule.\n');
    return 0;
  },
};
