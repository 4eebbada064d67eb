/**
 * `ferry pipeline new`: a pipeline file for one described operation, its fields mapped to a sample
 * export's columns by name similarity (exact, then case and punctuation folded, then common
 * synonyms). Required properties it cannot map get a TODO comment; nothing is guessed at run time.
 */
import {
  type Binding,
  type Operation,
  type Schema,
  isSchemaObject,
  objectShape,
  typesOf,
} from '../../interface/index.js';

/** Folded names that mean the same (ERP wording -> the platform's property). */
const SYNONYMS: Record<string, readonly string[]> = {
  externalid: [
    'sku',
    'no',
    'number',
    'itemno',
    'itemnumber',
    'productno',
    'articleno',
    'id',
    'code',
  ],
  name: ['description', 'title', 'itemname', 'productname'],
  title: ['name', 'description', 'itemname', 'productname'],
  description: ['description2', 'longdescription', 'text'],
  amount: ['price', 'unitprice', 'salesprice'],
  price: ['unitprice', 'salesprice', 'amount'],
  gtin: ['ean', 'barcode', 'upc', 'ean13'],
  vendor: ['vendorname', 'brand', 'manufacturer'],
  active: ['enabled', 'status'],
  sortindex: ['sort', 'sortorder', 'position', 'categorysort'],
  position: ['sort', 'sortorder', 'sortindex'],
  currency: ['currencycode'],
};

const fold = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The sample column for `property`, or undefined. */
export function columnFor(property: string, columns: readonly string[]): string | undefined {
  const exact = columns.find((c) => c === property);
  if (exact) return exact;
  const folded = fold(property);
  const same = columns.find((c) => fold(c) === folded);
  if (same) return same;
  for (const synonym of SYNONYMS[folded] ?? []) {
    const found = columns.find((c) => fold(c) === synonym);
    if (found) return found;
  }
  return undefined;
}

export interface NewPipeline {
  text: string;
  matched: { property: string; column: string }[];
  /** Required properties no column matched (a TODO each). */
  todo: string[];
  /** Optional properties no column matched (left out). */
  unmapped: string[];
}

const q = (s: string): string => JSON.stringify(s);

function fieldLine(property: string, column: string, schema: Schema): string {
  const types = typesOf(schema);
  const type = types.includes('integer')
    ? 'integer'
    : types.includes('number')
      ? 'decimal'
      : types.includes('boolean')
        ? 'boolean'
        : undefined;
  if (types.includes('array')) return `      ${q(property)}: { split: ',', column: ${q(column)} }`;
  return type
    ? `      ${q(property)}: { column: ${q(column)}, type: ${type} }`
    : `      ${q(property)}: ${q(column)}`;
}

export function newPipeline(options: {
  operation: Operation;
  binding: Binding;
  /** The schema of one item the operation sends. */
  item: Schema;
  columns: readonly string[];
  sample: string;
  connector: string;
  sourceOptions: Record<string, string>;
}): NewPipeline {
  const { operation, binding, item, columns } = options;
  const shape = objectShape(item);
  const keyProperty = operation.pathParams[0] ?? binding.keyField;
  const keyColumn = columnFor(keyProperty, columns) ?? columnFor(binding.keyField, columns);
  const kind = operation.kind === 'patch' ? 'patch' : 'upsert';
  const matched: NewPipeline['matched'] = [];
  const todo: string[] = [];
  const unmapped: string[] = [];
  const fields: string[] = [];
  for (const [property, schema] of Object.entries(shape.properties)) {
    if (property === binding.keyField) continue;
    const column = columnFor(property, columns);
    const required = shape.required.includes(property);
    if (column && isSchemaObject(schema) && !typesOf(schema).includes('object')) {
      matched.push({ property, column });
      fields.push(fieldLine(property, column, schema));
    } else if (required) {
      todo.push(property);
      const types = isSchemaObject(schema) ? typesOf(schema).join(' or ') || 'any' : 'any';
      fields.push(
        `      # TODO: required "${property}" (${types}) matches no column of the sample`,
      );
    } else unmapped.push(property);
  }
  const lines = [
    `# Written by \`ferry pipeline new\` for ${operation.id} from the sample ${options.sample}.`,
    '# Check it, map the TODOs, then run `ferry interface check`.',
    'source:',
    `  connector: ${options.connector}`,
    `  file: ${q(options.sample)}`,
  ];
  const opts = Object.entries(options.sourceOptions);
  if (opts.length > 0) {
    lines.push('  options:', ...opts.map(([k, v]) => `    ${k}: ${q(v)}`));
  }
  lines.push('mode: snapshot', 'entities:', `  - name: ${operation.resource}`);
  lines.push('    operations:', `      ${kind}: ${operation.id}`);
  if (keyColumn) {
    matched.unshift({ property: keyProperty, column: keyColumn });
    lines.push(`    key: ${q(keyColumn)}`);
  } else {
    todo.unshift(keyProperty);
    lines.push(
      `    # TODO: the key (${keyProperty}) matches no column of the sample`,
      `    key: TODO`,
    );
  }
  const real = fields.some((l) => !l.trimStart().startsWith('#'));
  lines.push('    fields:', ...fields, ...(real ? [] : ['      {}']));
  return { text: `${lines.join('\n')}\n`, matched, todo, unmapped };
}
