import { JSON_OPTION, writeJson, type Command } from '../command.js';

export const configCheckCommand: Command = {
  name: 'config check',
  usage: 'config check [--json]',
  description:
    'Reads FERRY_CONFIG (default config/default.yaml) and the environment overrides. Exit 0 when valid, 2 when not.',
  options: { ...JSON_OPTION },
  async run({ args, stdout, env }) {
    const { configPath, loadConfig } = await import('../../config/index.js');
    const { source, config } = loadConfig(env, configPath(env));
    if (args.values.json) {
      await writeJson(stdout, { ok: true, source, listing: config.interface.listing });
    } else {
      stdout.write(`Configuration in ${source} is valid.\n`);
    }
    return 0;
  },
};
