import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';
import { withScheduleQueue } from './schedules.js';

function pauseOrResume(action: 'pause' | 'resume'): Command {
  return {
    name: `schedules ${action}`,
    usage: `schedules ${action} <pipeline> [--json]`,
    positionals: [1, 1],
    description: [
      action === 'pause'
        ? 'The schedule stays paused across worker restarts and `ferry schedules sync`; a run in progress goes on.'
        : 'Ticks missed while paused are not made up: the next run is at the next tick.',
      '',
      `With --json: {pipeline, paused: ${action === 'pause'}}. Exit 0; 2 when the pipeline has no schedule.`,
    ].join('\n'),
    options: { ...JSON_OPTION },
    async run({ args, stdout, config: getConfig }) {
      const { pauseSchedule, resumeSchedule } = await import('../../schedules/index.js');
      const change = action === 'pause' ? pauseSchedule : resumeSchedule;
      const config = getConfig();
      const pipeline = args.positionals[0]!;
      await withScheduleQueue(config, (redis, queue) => change(config, redis, queue, pipeline));
      const paused = action === 'pause';
      if (flag(args, 'json')) await writeJson(stdout, { pipeline, paused });
      else stdout.write(`Schedule of ${pipeline} ${paused ? 'paused' : 'resumed'}.\n`);
      return 0;
    },
  };
}

export const schedulesPauseCommand = pauseOrResume('pause');
export const schedulesResumeCommand = pauseOrResume('resume');
