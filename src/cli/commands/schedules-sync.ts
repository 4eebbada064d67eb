import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { withScheduleQueue } from './schedules.js';

export const schedulesSyncCommand: Command = {
  name: 'schedules sync',
  usage: 'schedules sync [--json]',
  description: [
    'Puts a schedule in Redis for each pipeline file with a `schedule:` (unless paused) and',
    'removes those whose pipeline lost its schedule or its file. A pipeline file that cannot be',
    'read keeps the schedule it had, and is named with the reason.',
    '',
    'With --json: {scheduled: [pipeline], removed: [pipeline], problems: [{pipeline, message}]}.',
    'Exit 0; 1 when a pipeline file could not be read or Redis does not answer; 2 bad config.',
  ].join('\n'),
  options: { ...JSON_OPTION },
  async run({ args, stdout, stderr, config: getConfig }) {
    const { syncSchedules } = await import('../../schedules/index.js');
    const config = getConfig();
    const result = await withScheduleQueue(config, (redis, queue) =>
      syncSchedules(config, redis, queue),
    );
    if (flag(args, 'json')) await writeJson(stdout, result);
    else {
      stdout.write(
        `Scheduled: ${result.scheduled.join(', ') || 'none'}. Removed: ${result.removed.join(', ') || 'none'}.\n`,
      );
    }
    for (const p of result.problems) {
      stderr.write(`ferry schedules sync: ${p.pipeline} left as it was: ${p.message}\n`);
    }
    return result.problems.length > 0 ? 1 : 0;
  },
};
