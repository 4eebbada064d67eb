import type { ConfigIssue } from '../../errors/index.js';
import { JSON_OPTION, writeJson, type Command } from '../command.js';

export const configCheckCommand: Command = {
  name: 'config check',
  usage: 'config check [--json]',
  description: [
    'Reads FERRY_CONFIG (default config/default.yaml) and the environment overrides, then loads',
    'every pipeline file of pipelines.dir as a run would (each key by its path, and the keys that',
    "name a payload field, such as a guard's field, against the fields its mapping builds).",
    'With --json: {ok, source, listing, pipelines: [names]}.',
    'Exit 0 when all is valid, 2 when not (every problem named by file and key).',
  ].join('\n'),
  options: { ...JSON_OPTION },
  async run({ args, stdout, env }) {
    const { configPath, loadConfig } = await import('../../config/index.js');
    const { ConfigError } = await import('../../errors/index.js');
    const { displayPath, loadAnyPipeline, pipelineNames, pipelinesDir, pipelineTargets } =
      await import('../../pipeline/index.js');
    const { source, config } = loadConfig(env, configPath(env));
    const names = pipelineNames(config);
    const issues: ConfigIssue[] = [];
    for (const name of names) {
      try {
        // Each platform's: its listing, description and overrides (docs/PLATFORMS.md).
        for (const target of pipelineTargets(name, config)) loadAnyPipeline(target, config);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        const file = error.details.source;
        for (const i of error.issues) issues.push({ ...i, path: `${file}: ${i.path || '(root)'}` });
      }
    }
    if (issues.length > 0) {
      throw new ConfigError(`the pipelines of ${displayPath(pipelinesDir(config))}`, issues);
    }
    if (args.values.json) {
      await writeJson(stdout, {
        ok: true,
        source,
        listing: config.interface.listing,
        pipelines: names,
      });
    } else {
      stdout.write(
        `Configuration in ${source} is valid, and its ${names.length} pipeline(s) load.\n`,
      );
    }
    return 0;
  },
};
