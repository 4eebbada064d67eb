/**
 * Seeded synthetic data for the read operations whose data Ferry never writes: orders, z-reports,
 * revenue statistics, microshops and the age group code. Item i of a data set is computed from
 * (seed, data set, i) alone, so pages are cheap and the same seed always gives the same data.
 * Money is integer øre formatted as decimal strings; dates count from a fixed day.
 */
import { deriveSeed, intBetween, mulberry32, type Random } from './prng.js';

const BASE_DAY = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
const STORES = ['S001', 'S002', 'S003', 'S004'];
const ORDER_STATUSES = ['placed', 'paid', 'shipped', 'delivered', 'cancelled'];
const WORDS = ['Nord', 'Fjell', 'Kyst', 'Skog', 'By', 'Vidde', 'Fjord', 'Dal'];

function money(ore: number): string {
  return `${Math.floor(ore / 100)}.${String(ore % 100).padStart(2, '0')}`;
}

function day(offset: number): string {
  return new Date(BASE_DAY + offset * DAY_MS).toISOString().slice(0, 10);
}

function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

function order(random: Random, i: number) {
  let totalOre = 0;
  const lines = Array.from({ length: intBetween(random, 1, 4) }, () => {
    const quantity = intBetween(random, 1, 5);
    const unitPrice = intBetween(random, 4_900, 499_900);
    totalOre += unitPrice * quantity;
    return {
      productExternalId: String(10_000 + intBetween(random, 0, 999)),
      quantity,
      unitPrice: money(unitPrice),
      lineTotal: money(unitPrice * quantity),
    };
  });
  const placedAt = BASE_DAY + i * 3 * 3_600_000 + intBetween(random, 0, 3_599_999);
  return {
    externalId: `ORD-${100_000 + i}`,
    createdAt: new Date(placedAt).toISOString(),
    storeExternalId: pick(random, STORES),
    status: pick(random, ORDER_STATUSES),
    currency: 'NOK',
    lines,
    total: money(totalOre),
  };
}

function zReport(random: Random, i: number) {
  const gross = intBetween(random, 500_000, 25_000_000);
  const vat = Math.round(gross * 0.2);
  return {
    externalId: `Z-${day(i)}-${STORES[i % STORES.length]}`,
    date: day(i),
    storeExternalId: STORES[i % STORES.length],
    receipts: intBetween(random, 20, 600),
    grossSales: money(gross),
    vat: money(vat),
    netSales: money(gross - vat),
    currency: 'NOK',
  };
}

function revenue(random: Random, i: number) {
  return {
    date: day(i),
    orders: intBetween(random, 10, 400),
    revenue: money(intBetween(random, 1_000_000, 50_000_000)),
    currency: 'NOK',
  };
}

function microshop(random: Random, i: number) {
  const name = `${pick(random, WORDS)} ${pick(random, WORDS).toLowerCase()}butikk ${i + 1}`;
  const handle = name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return {
    externalId: `MS-${String(i + 1).padStart(3, '0')}`,
    name,
    handle,
    url: `https://shop.example.com/${handle}`,
    active: random() < 0.85,
  };
}

interface DataSet {
  total: number;
  item(random: Random, i: number): unknown;
}

/** Read resources served from synthetic data, with their sizes. */
export const SYNTHETIC: Readonly<Record<string, DataSet>> = {
  orders: { total: 240, item: order },
  zReports: { total: 120, item: zReport },
  revenue: { total: 90, item: revenue },
  microshops: { total: 12, item: microshop },
};

export function syntheticItems(seed: number, resource: string, offset: number, limit: number) {
  const set = SYNTHETIC[resource];
  if (!set) return { items: [], total: 0 };
  const items: unknown[] = [];
  for (let i = offset; i < Math.min(set.total, offset + limit); i++) {
    items.push(set.item(mulberry32(deriveSeed(seed, resource, i)), i));
  }
  return { items, total: set.total };
}

export function syntheticAgeGroupCode(seed: number) {
  const random = mulberry32(deriveSeed(seed, 'ageGroupCode'));
  return {
    code: `AGC-${String(intBetween(random, 0, 9999)).padStart(4, '0')}`,
    ageGroupExternalIds: ['AG-0-12', 'AG-13-17', 'AG-18-PLUS'],
    updatedAt: day(intBetween(random, 0, 365)),
  };
}
