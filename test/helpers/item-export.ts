/** The ERP item export that config/pipelines/catalog.yaml reads, built item by item. */

const COLUMNS = [
  'No.',
  'Description',
  'Description 2',
  'Vendor Name',
  'Item Category Code',
  'Item Category Name',
  'Parent Category Code',
  'Category Sort',
  'Unit Price',
  'Currency',
  'Blocked',
  'GTIN',
  'Web Handle',
  'Last Date Modified',
];

/** One item's fields that differ between the tests; the others are fixed. */
export interface ExportItem {
  category: string;
  /** As the ERP writes it: `100,50`. */
  price: string;
  /** Default NOK. */
  currency?: string;
  description2?: string;
  parent?: string;
  /** Default i mod 3. */
  sort?: number;
  gtin?: string;
}

/**
 * The export (`;`-separated, a header line) of items 0..count-1: item i is key 20000+i, named
 * "Item i" by "Vendor" in "Category CAT", not blocked, with what `item(i)` gives; left out where
 * it gives undefined.
 */
export function itemExport(count: number, item: (i: number) => ExportItem | undefined): string {
  const rows = [COLUMNS.join(';')];
  for (let i = 0; i < count; i++) {
    const it = item(i);
    if (!it) continue;
    rows.push(
      [
        20_000 + i,
        `Item ${i}`,
        it.description2 ?? '',
        'Vendor',
        it.category,
        `Category ${it.category}`,
        it.parent ?? '',
        it.sort ?? i % 3,
        it.price,
        it.currency ?? 'NOK',
        'No',
        it.gtin ?? '',
        '',
        '01.01.2026',
      ].join(';'),
    );
  }
  return `${rows.join('\n')}\n`;
}
