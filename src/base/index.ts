/**
 * The front door of src/base: shared records, canonical JSON, hashing and CSV. The layers above
 * import what they use of it from here, never one of its modules (.ci/check-imports.mjs); this
 * file re-exports exactly those names.
 */
export { canonicalJson } from './canonical-json.js';
export { ExactNumber, parseExact, stringifyExact } from './exact-json.js';
export { compareDecimals, isMultipleOf, JSON_NUMBER } from './decimal-digits.js';
export { csvCell, toCsv } from './csv.js';
export { jsonArrayItems } from './json-array-items.js';
export { jsonChunks } from './json-chunks.js';
export { closestName, didYouMean } from './did-you-mean.js';
export { counted } from './counted.js';
export { atDottedPath, setDottedPath } from './dotted-path.js';
export { durationText } from './duration-text.js';
export { firstFew } from './first-few.js';
export { groupBy } from './group-by.js';
export { hashParts } from './hash.js';
export { isCurrencyCode, minorUnitExponent } from './iso-4217.js';
export type { RowError, SourceRecord, SourceRef } from './records.js';
