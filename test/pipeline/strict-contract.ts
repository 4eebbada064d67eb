/**
 * A pipeline and an export against test/fixtures/openapi/strict-amounts-3.0.yaml: products and
 * campaigns, each from the rows that name one; the rows break the description's rules one each.
 */
import { resolve } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/load-config.js';

export const STRICT = resolve(PROJECT_ROOT, 'test/fixtures/openapi/strict-amounts-3.0.yaml');

export const STRICT_PIPELINE = {
  source: { connector: 'csv' },
  mode: 'snapshot',
  entities: [
    {
      name: 'product',
      operations: { upsert: 'products.put' },
      key: 'sku',
      when: { column: 'sku', notEmpty: true },
      fields: {
        name: 'name',
        gtin: 'EAN',
        active: { column: 'active', type: 'boolean' },
        vendor: { value: '' },
        handle: { template: 'p-{sku}' },
        categoryExternalIds: { value: [] },
      },
    },
    {
      name: 'campaign',
      operations: { upsert: 'campaigns.put' },
      key: 'campaign',
      when: { column: 'campaign', notEmpty: true },
      fields: {
        name: 'campaign name',
        adjustmentType: 'type',
        value: { column: 'amount', type: 'decimal', decimalSeparator: '.' },
      },
    },
  ],
};

export const STRICT_ROWS = [
  'sku,name,EAN,active,campaign,campaign name,type,amount',
  'P1,Bike,12345678,true,,,,', // line 2: fits
  'P2,Helmet,12AB34,true,,,,', // 3: gtin pattern
  'P3,A name far longer than twenty,12345679,true,,,,', // 4: name maxLength
  'P4,Lamp,,true,,,,', // 5: gtin required
  ',,,,C1,Spring,percent,12345678901234567.89', // 6: fits, 19 digits
  ',,,,C2,Summer,bogus,10', // 7: adjustmentType enum
  ',,,,C3,Autumn,fixed,1.234', // 8: more decimals than multipleOf 0.01
  ',,,,C4,Winter,fixed,0.07', // 9: fits (0.07 / 0.01 is not whole in doubles)
];
