import './builtin.js';

export {
  findTransform,
  registerTransform,
  transformNames,
  TransformRejection,
  type Transform,
  type TransformContext,
} from './registry.js';
