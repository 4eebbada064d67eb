/**
 * What the presets (config/pipelines/shopify-products.yaml, akeneo-products.yaml) name, registered
 * with the pipeline engine: transforms, a computed field and a merge (docs/PRESETS.md).
 */
import { registerComputedField, registerMerge } from '../transforms/registry.js';
import { akeneoPrices } from './akeneo-prices.js';
import { lowestPerCurrency } from './price-list.js';
import './transforms.js';

registerComputedField('akeneoPrices', akeneoPrices);
registerMerge('lowestPerCurrency', lowestPerCurrency);
