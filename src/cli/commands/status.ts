import type { DataLoss } from '../../runs/index.js';
import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { withRedis } from '../with-redis.js';

/** What a loss of Redis's data means, for the operator who finds it in `ferry status`. */
function dataLossLines(loss: DataLoss): string[] {
  const resent = loss.resent.length > 0 ? loss.resent.join(', ') : 'none yet';
  return [
    `REDIS LOST ITS DATA: noticed ${new Date(loss.detectedAt).toISOString()} by ${loss.detectedBy}` +
      ` (the lost data dated from ${new Date(loss.previousCreatedAt).toISOString()}` +
      `${loss.count > 1 ? `; ${loss.count} losses noticed` : ''}).`,
    '  Runs in progress then, their queued jobs, dead letters and the sync state went with it.',
    "  Each pipeline's next run stops before resending what it delivered before, and says how",
    '  much that is; `ferry run <pipeline> --resend-all` sends it all once.',
    `  Pipelines resent since: ${resent}.`,
  ];
}

interface PipelinePlatform {
  pipeline: string;
  platformName: string;
  platform: string | null;
  configuredPlatform: string;
}

/**
 * Each pipeline's platform (its name beside the URL it is configured for), and where its state
 * belongs to another platform than the configured one, what that means.
 */
function platformLines(pipelines: PipelinePlatform[]): string[] {
  const lines = ['Pipelines (platform, URL):'];
  const width = Math.max(0, ...pipelines.map((p) => p.pipeline.length));
  const named = Math.max(0, ...pipelines.map((p) => p.platformName.length));
  for (const p of pipelines) {
    lines.push(
      `  ${p.pipeline.padEnd(width)}  ${p.platformName.padEnd(named)}  ${p.configuredPlatform}`,
    );
  }
  for (const p of pipelines.filter(
    (x) => x.platform !== null && x.platform !== x.configuredPlatform,
  )) {
    lines.push(
      `  the state of ${p.pipeline} belongs to ${p.platform}: its runs stop until ` +
        `\`ferry state rebind ${p.pipeline}\` (same platform, new address), a rebuild or --resend-all.`,
    );
  }
  return lines;
}

export const statusCommand: Command = {
  name: 'status',
  usage: 'status [--json]',
  description: [
    'With --json: {queues: {bulk|interactive: {waiting, active, delayed, failed}}, pausedForMs,',
    'activeRuns: [{runId, pipeline, status, kind, lane, startedAt, stage, stages, settledItems,',
    'plannedItems, failedItems}], deadLetters, dataLoss?: {detectedAt, detectedBy, previousEpoch,',
    'previousCreatedAt, count, resent}}. dataLoss is there once a Ferry process noticed that Redis',
    'lost its data (restarted empty, failed over to an empty replica, flushed): what it means and',
    'the ways out are printed with it. pipelines: [{pipeline, platformName, platform,',
    'configuredPlatform}], one per pipeline and platform it delivers to (`catalog@north` on',
    "platform north, `ferry platforms`): platformName the platform's name, platform the one its",
    'state belongs to (its normalised base URL; null before a run adopted one) and',
    'configuredPlatform the URL configured now for platformName; a run stops while they differ',
    '(see `ferry state rebind`). Exit 0; 2 bad config; 5 when Redis does not answer.',
  ].join('\n'),
  options: { ...JSON_OPTION },
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery, readStatus } = await import('../../queue/index.js');
    const { deliveryKeys, LANES } = await import('../../runs/index.js');
    const { allPipelineTargets } = await import('../../pipeline/index.js');
    const { platformConfig, splitPipelineName } = await import('../../config/index.js');
    const { platformUrl, statePlatform } = await import('../../state/index.js');
    const config = getConfig();
    return await withRedis(
      () => connectDelivery(config.redis, 'the queues, runs and dead letters are kept there'),
      async (redis) => {
        const pipelines: PipelinePlatform[] = await Promise.all(
          allPipelineTargets(config).map(async (pipeline) => {
            const platformName = splitPipelineName(pipeline).platform;
            return {
              pipeline,
              platformName,
              platform: (await statePlatform(redis, config.redis.prefix, pipeline)) ?? null,
              configuredPlatform: platformUrl(platformConfig(config, platformName).interface),
            };
          }),
        );
        const status = await readStatus(redis, deliveryKeys(config.redis.prefix));
        if (flag(args, 'json')) {
          await writeJson(stdout, { ...status, pipelines });
          return 0;
        }
        const lines = ['Queues (waiting / active / delayed / failed):'];
        for (const lane of LANES) {
          const q = status.queues[lane];
          lines.push(
            `  ${lane.padEnd(12)} ${q.waiting} / ${q.active} / ${q.delayed} / ${q.failed}`,
          );
        }
        if (status.pausedForMs > 0) {
          lines.push(
            `Delivery paused for ${Math.ceil(status.pausedForMs / 1000)} s (the platform asked to wait).`,
          );
        }
        lines.push(status.activeRuns.length > 0 ? 'Runs in progress:' : 'No run in progress.');
        for (const r of status.activeRuns) {
          lines.push(
            `  ${r.runId} (${r.kind}, ${r.lane}${r.status === 'running' ? '' : `, ${r.status}`}) ` +
              `stage ${r.stage}/${r.stages}: ` +
              `${r.settledItems}/${r.plannedItems} items settled, ${r.failedItems} failed`,
          );
        }
        lines.push(
          `Dead letters: ${status.deadLetters}${status.deadLetters > 0 ? ' (`ferry dlq list`)' : ''}`,
        );
        if (status.dataLoss) lines.push(...dataLossLines(status.dataLoss));
        lines.push(...platformLines(pipelines));
        stdout.write(`${lines.join('\n')}\n`);
        return 0;
      },
    );
  },
};
