/**
 * How a sample column's name says a described property, for `ferry pipeline new`: exact, folded
 * (case and punctuation), synonyms of ERP wording, words that say the opposite of a boolean, and
 * the resource a name is about ("Item Category Name" is a category's name, set aside to match).
 */

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
  productid: ['no', 'sku', 'itemno', 'itemnumber', 'productno', 'number', 'articleno'],
  parentexternalid: ['parentcode', 'parentid', 'parentno', 'parent'],
  name: ['description', 'title', 'itemname', 'productname'],
  title: ['name', 'description', 'itemname', 'productname'],
  description: ['description2', 'longdescription', 'text'],
  amount: ['price', 'unitprice', 'salesprice'],
  price: ['unitprice', 'salesprice', 'amount'],
  gtin: ['ean', 'barcode', 'upc', 'ean13'],
  vendor: ['vendorname', 'brand', 'manufacturer'],
  active: ['enabled', 'status'],
  handle: ['webhandle', 'slug', 'urlkey'],
  sortindex: ['sort', 'sortorder', 'position'],
  position: ['sort', 'sortorder', 'sortindex'],
  currency: ['currencycode'],
};
/** Columns that say the opposite of a boolean property: mapped with `negate: true`. */
const INVERSES: Record<string, readonly string[]> = {
  active: ['blocked', 'disabled', 'inactive'],
  enabled: ['blocked', 'disabled'],
};
/** Words that say which resource a column or property is about; the first matching wins. */
const SUBJECTS: readonly [string, readonly string[]][] = [
  ['category', ['category', 'categories']],
  ['product', ['item', 'product', 'products', 'article']],
];
/** The subject word of a resource drafted for (its columns and properties say it). */
export const RESOURCE_SUBJECT: Record<string, string> = {
  categories: 'category',
  products: 'product',
};

const fold = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');
const words = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

/** The resource a name is about (by its words) and the name without those words, folded. */
export function subjectOf(name: string): { subject?: string; rest: string } {
  const all = words(name);
  const subject = SUBJECTS.find(([, ws]) => all.some((w) => ws.includes(w)))?.[0];
  if (!subject) return { rest: all.join('') };
  const drop = new Set(SUBJECTS.flatMap(([, ws]) => ws));
  return { subject, rest: all.filter((w) => !drop.has(w)).join('') };
}

/** How well a column's name says `property` (0: not at all); `negate` for an inverse word. */
export function nameScore(property: string, column: string): { score: number; negate?: true } {
  const p = fold(property);
  const singular = p.endsWith('s') && !p.endsWith('ss') ? p.slice(0, -1) : p;
  const base = singular.replace(/(minor|cents)$/, '');
  const c = fold(column);
  const stripped = subjectOf(column).rest;
  const rest = subjectOf(property).rest;
  const propertyRest = rest.endsWith('s') && !rest.endsWith('ss') ? rest.slice(0, -1) : rest;
  if (property === column) return { score: 100 };
  if (c === p) return { score: 95 };
  if (stripped && [p, singular, propertyRest].includes(stripped)) return { score: 90 };
  for (const key of new Set([p, singular, base, propertyRest])) {
    if ((SYNONYMS[key] ?? []).some((s) => s === c || s === stripped)) return { score: 70 };
    if ((INVERSES[key] ?? []).includes(c)) return { score: 60, negate: true };
  }
  return { score: 0 };
}
