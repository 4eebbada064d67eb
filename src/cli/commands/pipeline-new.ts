import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '../../errors/index.js';
import { flag, JSON_OPTION, stringOption, writeJson, type Command } from '../command.js';

const NAME = /^[A-Za-z0-9_.-]+$/;
const SAMPLE_RECORDS = 200;

/** The sample's first records (field -> raw text), connector and options. */
async function sampleRecords(file: string, signal: AbortSignal) {
  const { readSource: readSample } = await import('../../../connectors/index.js');
  const { items, meta } = readSample({ file }, undefined, {}, { optionsSource: '--sample' });
  const records: Record<string, string>[] = [];
  for await (const item of items) {
    if (signal.aborted || records.length >= SAMPLE_RECORDS) break;
    if (!('error' in item)) records.push(item.record.fields);
  }
  const options: Record<string, string> = {};
  if (typeof meta.delimiter === 'string' && meta.delimiter !== ',')
    options.delimiter = meta.delimiter;
  if (typeof meta.encoding === 'string' && !/^utf-?8$/i.test(meta.encoding))
    options.encoding = meta.encoding;
  return { records, connector: String(meta.connector ?? 'csv'), options };
}

export const pipelineNewCommand: Command = {
  name: 'pipeline new',
  usage: 'pipeline new NAME --operation ID --sample FILE [--openapi SRC] [--force] [--json]',
  description: [
    "Writes config/pipelines/NAME.yaml (pipelines.dir) for one operation of the platform's OpenAPI",
    "description (--openapi, else interface.openapi), drafted from a profile of the sample's first",
    `${SAMPLE_RECORDS} records (what each column holds: whole numbers, decimals and their separator,`,
    'yes/no words, dates, ISO 4217 codes, text; how many values are distinct; their lengths). Each',
    'described property (inside objects and arrays of objects such as prices[] too) gets the column',
    'whose name says it (exact, folded, synonyms such as No. -> externalId, Unit Price -> amount,',
    'EAN -> gtin; "Item Category Name" is a category\'s name) and whose values fit its type, format,',
    'pattern, enum and length; a decimal amount into an integer property is written in minor units',
    'of the currency column. A column feeds one property, chosen for the best total; a column about',
    'another resource ("Category Sort") never feeds this one. A required property nothing fits gets',
    'a TODO comment saying why. Then edit the file and run `ferry interface check`.',
    'Exit codes: 0 written; 2 bad usage, the file exists (use --force), or the description cannot be read.',
    '',
    'Example:',
    '  ferry pipeline new products --operation products.put --sample export.csv',
  ].join('\n'),
  options: {
    operation: {
      type: 'string',
      placeholder: 'ID',
      description: 'The operation the pipeline writes.',
    },
    sample: { type: 'string', placeholder: 'FILE', description: 'A sample of the ERP export.' },
    openapi: { type: 'string', placeholder: 'SRC', description: 'The description: a file or URL.' },
    force: { type: 'boolean', description: 'Overwrite an existing pipeline file.' },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, config: getConfig, stopSignal }) {
    const {
      resolveBindings,
      findOperation,
      describedBindings,
      itemsArrayOf,
      describedOperations,
      isSchemaObject,
      loadDescription,
      matchCatalog,
    } = await import('../../interface/index.js');
    const { newPipeline, pipelinesDir, profileSample } = await import('../../pipeline/index.js');
    const name = args.positionals[0] as string;
    if (!NAME.test(name)) throw new UsageError(`NAME takes letters, digits, _ . -; got "${name}".`);
    const operationId = stringOption(args, 'operation');
    const sample = stringOption(args, 'sample');
    if (!operationId || !sample) throw new UsageError('--operation and --sample are required.');
    const operation = findOperation(operationId);
    if (!operation || !['upsert', 'patch', 'entityWrite', 'action'].includes(operation.kind)) {
      throw new UsageError(
        `--operation must be a write with a body (e.g. products.put), got "${operationId}".`,
      );
    }
    const config = getConfig();
    const source = stringOption(args, 'openapi') ?? config.interface.openapi;
    if (!source)
      throw new UsageError('No description: pass --openapi FILE|URL or set interface.openapi.');
    const match = matchCatalog(
      describedOperations((await loadDescription(source, { signal: stopSignal })).doc),
    );
    const described = match.matched.get(operation.id);
    if (!described) throw new UsageError(`${source} does not describe ${operation.id}.`);
    const binding = resolveBindings(config.interface.bindings, describedBindings(match)).get(
      operation.id,
    )!;
    const item =
      binding.body === 'items'
        ? itemsArrayOf(described.requestSchema)?.array.items
        : described.requestSchema;
    if (!isSchemaObject(item)) {
      throw new UsageError(`${source}: ${operation.id} describes no JSON object to send.`);
    }
    const file = join(pipelinesDir(config), `${name}.yaml`);
    if (existsSync(file) && !flag(args, 'force')) {
      throw new UsageError(`${file} exists; pass --force to overwrite it.`);
    }
    const read = await sampleRecords(sample, stopSignal);
    const made = newPipeline({
      operation,
      binding,
      item,
      profiles: profileSample(read.records),
      sample,
      connector: read.connector,
      sourceOptions: read.options,
    });
    mkdirSync(pipelinesDir(config), { recursive: true });
    writeFileSync(file, made.text);
    if (flag(args, 'json')) {
      await writeJson(stdout, {
        file,
        operationId,
        matched: made.matched,
        todo: made.todo,
        unmapped: made.unmapped,
      });
    } else {
      stdout.write(`Wrote ${file}\n`);
      for (const m of made.matched) stdout.write(`  ${m.property} <- ${m.column}\n`);
      for (const t of made.todo)
        stdout.write(`  ${t}: required, no column matched (TODO in the file)\n`);
      if (made.unmapped.length > 0)
        stdout.write(`  not mapped (optional): ${made.unmapped.join(', ')}\n`);
      stdout.write(`Next: edit it, then \`ferry interface check\`.\n`);
    }
    return 0;
  },
};
