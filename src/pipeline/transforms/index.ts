import './builtin.js';
// What the presets (config/pipelines/shopify-products.yaml, akeneo-products.yaml) name.
import '../presets/index.js';

export {
  computedFieldNames,
  findComputedField,
  findMerge,
  findTransform,
  mergeNames,
  registerComputedField,
  registerMerge,
  registerTransform,
  transformNames,
  TransformRejection,
  type ComputedField,
  type MergeFunction,
  type RegisteredTransform,
  type Transform,
  type TransformContext,
  type TransformOptions,
} from './registry.js';
