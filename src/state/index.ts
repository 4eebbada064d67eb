/**
 * The front door of src/state: the sync state: what the platform confirmed, per pipeline and
 * entity. The layers above import what they use of it from here, never one of its modules
 * (.ci/check-imports.mjs); this file re-exports exactly those names.
 */
export { connectState, redisWhere } from './connect-state.js';
export { liveCountKey, stateKey } from './keys.js';
export { StateOtherPlatformError } from './errors.js';
export {
  bindStatePlatform,
  checkStatePlatform,
  normalisePlatformUrl,
  platformUrl,
  startStateOver,
  statePlatform,
} from './platform-binding.js';
export {
  type ItemVerdict,
  stateDeleted,
  stateFieldHashes,
  stateHashIs,
  stateInputIs,
  stateVersion,
} from './state-format.js';
export { createStateStore, type StateStore } from './state-store.js';
export { createRefusalLog, type RefusalCount, type RefusalLog } from './refusals.js';
export {
  type BeforeImage,
  createPayloadHistory,
  type DeliveredItem,
  type PayloadHistory,
} from './before-images/payload-history.js';
export type { KeptPayload } from './before-images/payload-codec.js';
export type { ChangeKind, EntityState, StateItem } from './types.js';
