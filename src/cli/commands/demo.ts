import { UsageError } from '../../errors/index.js';
import { flag, stringOption, type Command } from '../command.js';

export const demoCommand: Command = {
  name: 'demo',
  usage: 'demo [--once] [--port P] [--console-port P]',
  description: [
    'Starts the simulator (on a free port, or --port), uses the Redis of REDIS_URL (or, when none',
    'answers, starts a private redis-server if one is installed), runs a worker in this process',
    'and runs the catalog, stores, users and item-changes pipelines on the files in examples/,',
    'printing each report and then what landed in the simulator. Then it keeps the simulator',
    'serving, starts the console (http://127.0.0.1:8787, or a free port when that one is taken)',
    'and prints its address with a viewer and an operator token made for this demo, until',
    'Ctrl-C; or exits at once with --once (`npm run demo` is `ferry demo --once`).',
    'Its Redis keys are under a prefix of its own and are removed when it ends.',
    '',
    'Exit codes: 0 every valid item delivered (the sample files hold a few records that are',
    'rejected on purpose); 1 some items were dead-lettered; 2 no Redis and no way to start one',
    '(the message says how to get one), or bad usage.',
  ].join('\n'),
  reportsToPeople: () => true,
  options: {
    once: {
      type: 'boolean',
      description: 'Exit after the report instead of serving until Ctrl-C.',
    },
    port: {
      type: 'string',
      placeholder: 'P',
      description: "The simulator's port (default: a free one).",
    },
    'console-port': {
      type: 'string',
      placeholder: 'P',
      description: "The console's port (default 8787; a free one when it is taken).",
    },
  },
  async run({ args, stdout, stderr, config, logger, stopSignal }) {
    const { runDemo } = await import('../../demo/index.js');
    const portOf = (name: string): number | undefined => {
      const text = stringOption(args, name);
      if (text !== undefined && !/^\d{1,5}$/.test(text)) {
        throw new UsageError(`--${name} takes a port number, got "${text}".`);
      }
      return text === undefined ? undefined : Number(text);
    };
    const result = await runDemo({
      config: config(),
      logger: logger(),
      out: stdout,
      progress: stderr,
      once: flag(args, 'once'),
      port: portOf('port') ?? 0,
      consolePort: portOf('console-port') ?? 8787,
      signal: stopSignal,
    });
    return result.reports.some((r) => r.deadLettered > 0) ? 1 : 0;
  },
};
