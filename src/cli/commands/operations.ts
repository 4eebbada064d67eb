import type { Listing } from '../../config/index.js';
import { UsageError } from '../../errors/index.js';
import { JSON_OPTION, writeJson, type Command } from '../command.js';

export const operationsCommand: Command = {
  name: 'operations',
  usage: 'operations [--listing A|B] [--json]',
  description: 'With --json: an array of {id, group, method, path, listings}.',
  options: {
    listing: {
      type: 'string',
      placeholder: 'A|B',
      description: 'Only the operations of this listing.',
    },
    ...JSON_OPTION,
  },
  async run({ args, stdout }) {
    const { OPERATIONS } = await import('../../interface/index.js');
    const { LISTINGS } = await import('../../config/index.js');
    const listing = args.values.listing as string | undefined;
    if (listing !== undefined && !LISTINGS.includes(listing as Listing)) {
      throw new UsageError(`--listing must be A or B, got "${listing}".`);
    }
    const rows = OPERATIONS.filter((o) => !listing || o.listings.includes(listing as Listing)).map(
      (o) => ({
        id: o.id,
        group: o.group,
        method: o.method,
        path: o.path,
        listings: [...o.listings],
      }),
    );
    if (args.values.json) {
      await writeJson(stdout, rows);
      return 0;
    }
    const idWidth = Math.max(...rows.map((r) => r.id.length));
    for (const r of rows) {
      stdout.write(
        `${r.id.padEnd(idWidth)}  ${r.method.padEnd(6)} ${r.path}  [${r.listings.join(',')}]\n`,
      );
    }
    stdout.write(`${rows.length} operations${listing ? ` in listing ${listing}` : ''}\n`);
    return 0;
  },
};
