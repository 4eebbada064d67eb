/**
 * The listings of the interface (docs/CONFIGURATION.md, interface): which operations an
 * installation's platform has.
 */
export const LISTINGS = ['A', 'B'] as const;
export type Listing = (typeof LISTINGS)[number];
