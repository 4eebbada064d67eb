import type { PlatformView } from '../../queue/index.js';
import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { textTable } from '../text-table.js';
import { withRedis } from '../with-redis.js';

function pinText(p: PlatformView): string {
  if (!p.pinned) return '-';
  const short = p.pinned.sha256.slice(0, 12);
  return p.pinned.version !== undefined ? `${short} (${p.pinned.version})` : short;
}

/** The table, then per platform its blocked pipelines and its pipelines' last runs. */
function platformsText(platforms: PlatformView[]): string {
  const lines = [
    textTable([
      ['PLATFORM', 'BASE URL', 'LISTING', 'RATE/S', 'PINNED', 'BLOCKED'],
      ...platforms.map((p) => [
        p.name,
        p.baseUrl,
        p.listing,
        String(p.ratePerSecond),
        pinText(p),
        p.blocked ? String(p.blocked.length) : '-',
      ]),
    ]),
  ];
  for (const p of platforms) {
    lines.push('', `${p.name}:`);
    for (const b of p.blocked ?? []) {
      lines.push(
        `  BLOCKED ${b.pipeline}: ${b.reason}${b.since ? ` since ${b.since}` : ''} ` +
          `(run ${b.runId}; \`ferry resume ${b.runId}\` once fixed)`,
      );
    }
    if (p.lastRuns.length === 0) lines.push('  no runs yet');
    for (const r of p.lastRuns) {
      lines.push(
        `  last run of ${r.pipeline}: ${r.runId} ${r.status}` +
          `${r.finishedAt ? `, finished ${r.finishedAt}` : ''}`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

export const platformsCommand: Command = {
  name: 'platforms',
  usage: 'platforms [--json]',
  description: [
    'The platforms of the installation: `default` (the top-level interface) first, then those of',
    "the config's platforms, in their order (docs/PLATFORMS.md). BASE URL is the address a",
    'platform is spoken to, without user, password or query (no credential is ever printed);',
    'RATE/S its delivery.ratePerSecond (a number, or auto); PINNED the description `ferry',
    'interface pull` pinned for it. A pipeline blocked on a platform (it refuses every request:',
    'a credential, a permission, a route) is listed with the reason and its run, and the last',
    'run of each pipeline on the platform (syncs and exports, not replays or undos) with its',
    'status. A pipeline on another platform than default runs under `NAME@PLATFORM`.',
    '',
    'With --json: [{name, baseUrl, listing, pinned?: {sha256, source, version?}, ratePerSecond,',
    'blocked?: [{pipeline, runId, reason, since?}], lastRuns: [{pipeline, runId, status, trigger,',
    'startedAt, finishedAt?, reason?}]}]. Exit 0; 5 when Redis does not answer (as `ferry',
    'status`: the pins, blocks and runs are kept there); 2 bad config.',
  ].join('\n'),
  options: { ...JSON_OPTION },
  async run({ args, stdout, config: getConfig }) {
    const { connectDelivery, readPlatforms } = await import('../../queue/index.js');
    const { deliveryKeys } = await import('../../runs/index.js');
    const config = getConfig();
    return await withRedis(
      () =>
        connectDelivery(config.redis, 'the pins, blocks and runs of each platform are kept there'),
      async (redis) => {
        const platforms = await readPlatforms(redis, deliveryKeys(config.redis.prefix), config);
        if (flag(args, 'json')) await writeJson(stdout, platforms);
        else stdout.write(platformsText(platforms));
        return 0;
      },
    );
  },
};
