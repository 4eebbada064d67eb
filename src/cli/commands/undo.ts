import type { UndoResult } from '../../orchestrate/index.js';
import { flag, JSON_OPTION, writeJson, type Command } from '../command.js';

/**
 * `prices`: the price restorations in words (restoredPricesText); `skipped`: the skipped entities
 * grouped (skippedGroups; --json lists them all).
 */
function resultText(
  r: UndoResult,
  dryRun: boolean,
  prices: string | undefined,
  skipped: readonly string[],
): string {
  const ops = Object.entries(r.operations).map(([id, c]) => `${c.items} ${id}`);
  if (prices) ops.push(`prices restored: ${prices}`);
  const lines = [
    dryRun
      ? `Undoing run ${r.runId} would send: ${ops.join(', ') || 'nothing'}. Nothing was sent; drop --dry-run to undo it.`
      : `Undo of run ${r.runId} is run ${r.undoRunId}: ${ops.join(', ') || 'nothing to send'}. ` +
        '`ferry runs` follows it; `ferry undo` of that run undoes the undo.',
  ];
  if (r.skipped.length > 0) {
    lines.push(`Skipped ${r.skipped.length.toLocaleString('en-US')} (--json lists them all):`);
    for (const group of skipped) lines.push(`  ${group}`);
  }
  return `${lines.join('\n')}\n`;
}

export const undoCommand: Command = {
  name: 'undo',
  usage: 'undo <runId> [--dry-run] [--force] [--json]',
  description: [
    'Undoes a finished run from its before-images (docs/DELIVERY.md): every entity it changed gets',
    'back the payload Ferry had delivered before, what it created is deleted, what it deleted is',
    "created again, with what goes out with its creation (sendWithNew: a product's prices). The",
    'undo is a run of its own through the queue (with idempotency keys; its record names the run',
    'it undoes), which the value guards do not stop: asking for it is the approval. It can be',
    'undone in turn. Before-images are kept undo.retentionDays (default 14).',
    '',
    'An entity a later run changed again is skipped and named (undoing it would throw away the',
    'later change); --force undoes it too. An entity the run created whose resource has no delete',
    'operation, or one delivered before Ferry kept payloads, is skipped with its reason. The text',
    'says the skipped by resource and reason, with a few keys each; --json lists every one.',
    '',
    '--dry-run shows what would be sent and sends nothing: do it first.',
    '',
    "A price that rode in its product's batch item (bindings' pricesInBatch) has a before-image",
    "of its own and is restored like any price: inside its product's item where the binding",
    'allows, else by products.prices.patch; the prices restored are counted.',
    '',
    'With --json: {runId, undoRunId?, operations: {id: {items}}, prices?: {restored, requests},',
    'skipped: [{resource, key, reason}]}. Exit codes: 0 undo started (or a dry run); 1 another',
    'run of the pipeline is active; 2 bad usage, no such run, a run still going, or no',
    'before-images left (FERRY_UNDO).',
    '',
    'Examples:',
    '  ferry undo catalog-20261124T021500Z-1a2b --dry-run',
    '  ferry undo catalog-20261124T021500Z-1a2b --json',
  ].join('\n'),
  options: {
    'dry-run': { type: 'boolean', description: 'Show what the undo would send; send nothing.' },
    force: { type: 'boolean', description: 'Undo entities a later run changed again too.' },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, config: getConfig, logger, startTracing }) {
    const { connectDelivery } = await import('../../queue/index.js');
    const { restoredPricesText, skippedGroups, skippedGroupText, undoRun } =
      await import('../../orchestrate/index.js');
    const { cliActor, deliveryKeys, recordAudit } = await import('../../runs/index.js');
    const config = getConfig();
    await startTracing();
    const redis = await connectDelivery(
      config.redis,
      'undoing a run needs its before-images, kept in Redis',
    );
    const dryRun = flag(args, 'dry-run');
    try {
      const result = await undoRun({
        config,
        redis,
        logger: logger(),
        runId: args.positionals[0] as string,
        dryRun,
        force: flag(args, 'force'),
      });
      if (result.undoRunId) {
        await recordAudit(redis, deliveryKeys(config.redis.prefix), {
          actor: cliActor(),
          action: 'run.undo',
          target: `${result.runId} -> ${result.undoRunId}`,
        });
      }
      if (flag(args, 'json')) await writeJson(stdout, result);
      else {
        const skipped = skippedGroups(result.skipped).map(skippedGroupText);
        stdout.write(resultText(result, dryRun, restoredPricesText(result.prices), skipped));
      }
      return 0;
    } finally {
      redis.disconnect();
    }
  },
};
