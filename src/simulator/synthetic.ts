/**
 * Seeded synthetic data: the contents of the orders (the seeded initial set and the ones added
 * later), the microshops and the age group code. Item i of a data set is computed from
 * (seed, data set, i) alone, so the same seed always gives the same data. Money is integer øre
 * formatted as decimal strings; the seeded orders' dates count from a fixed day.
 */
import { deriveSeed, intBetween, mulberry32, type Random } from './prng.js';

export const BASE_DAY = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
const STORES = ['S001', 'S002', 'S003', 'S004'];
const ORDER_STATUSES = ['placed', 'paid', 'shipped', 'delivered', 'cancelled'];
const WORDS = ['Nord', 'Fjell', 'Kyst', 'Skog', 'By', 'Vidde', 'Fjord', 'Dal'];
const FIRST_NAMES = ['Kari', 'Ola', 'Ingrid', 'Lars', 'Nora', 'Jonas', 'Sofie', 'Emil'];
const LAST_NAMES = ['Hansen', 'Johansen', 'Olsen', 'Larsen', 'Berg', 'Haugen', 'Dahl', 'Lie'];
const CUSTOMERS = 200;

/** Øre as a decimal string: 129900 -> "1299.00". */
export function money(ore: number): string {
  return `${Math.floor(ore / 100)}.${String(ore % 100).padStart(2, '0')}`;
}

/** A decimal string with two decimals as øre: "1299.00" -> 129900. */
export function ore(decimal: string): number {
  const [whole, fraction = '0'] = decimal.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
}

function day(offset: number): string {
  return new Date(BASE_DAY + offset * DAY_MS).toISOString().slice(0, 10);
}

function pick<T>(random: Random, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)]!;
}

export interface OrderLine {
  productExternalId: string;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
}

export interface Order {
  /** Decimal digits, zero-padded to ORDER_ID_WIDTH: string order is numeric order. */
  id: string;
  externalId: string;
  createdAt: string;
  storeExternalId: string;
  customer: { externalId: string; name: string; email: string };
  status: string;
  currency: string;
  lines: OrderLine[];
  total: string;
}

export const ORDER_ID_WIDTH = 10;

export function orderId(sequence: number): string {
  return String(sequence).padStart(ORDER_ID_WIDTH, '0');
}

/** The time of seeded order i: one per three hours from BASE_DAY, so strictly increasing. */
function seededTime(random: Random, i: number): number {
  return BASE_DAY + i * 3 * 3_600_000 + intBetween(random, 0, 3_599_999);
}

/**
 * Order i (id i + 1). Its contents come from (seed, i); its time is `createdAtMs` when given (an
 * order added while the simulator runs), else the seeded time.
 */
export function syntheticOrder(seed: number, i: number, createdAtMs?: number): Order {
  const random = mulberry32(deriveSeed(seed, 'orders', i));
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
  const placedAt = seededTime(random, i);
  const customer = intBetween(random, 1, CUSTOMERS);
  const first = pick(random, FIRST_NAMES);
  const last = pick(random, LAST_NAMES);
  const id = orderId(i + 1);
  return {
    id,
    externalId: `ORD-${id}`,
    createdAt: new Date(createdAtMs ?? placedAt).toISOString(),
    storeExternalId: pick(random, STORES),
    customer: {
      externalId: `CUST-${String(customer).padStart(4, '0')}`,
      name: `${first} ${last}`,
      email: `${first}.${last}${customer}@example.com`.toLowerCase(),
    },
    status: pick(random, ORDER_STATUSES),
    currency: 'NOK',
    lines,
    total: money(totalOre),
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

export const MICROSHOPS = 12;

export function syntheticMicroshops(seed: number, offset: number, limit: number) {
  const items: unknown[] = [];
  for (let i = offset; i < Math.min(MICROSHOPS, offset + limit); i++) {
    items.push(microshop(mulberry32(deriveSeed(seed, 'microshops', i)), i));
  }
  return { items, total: MICROSHOPS };
}

export function syntheticAgeGroupCode(seed: number) {
  const random = mulberry32(deriveSeed(seed, 'ageGroupCode'));
  return {
    code: `AGC-${String(intBetween(random, 0, 9999)).padStart(4, '0')}`,
    ageGroupExternalIds: ['AG-0-12', 'AG-13-17', 'AG-18-PLUS'],
    updatedAt: day(intBetween(random, 0, 365)),
  };
}
