/**
 * How the payload history keeps a payload: from the JSON it was sent as, deflated only when long.
 */
import { expect, it } from 'vitest';
import { ExactNumber } from '../../src/base/index.js';
import {
  decodePayload,
  encodeDeleted,
  encodePayload,
  encodePayloadJson,
} from '../../src/state/before-images/payload-codec.js';

const tagOf = (value: Buffer | string): string => {
  const bytes = Buffer.from(value);
  return String.fromCharCode(bytes[bytes.indexOf(0x7c) + 1] as number);
};

it('keeps a short payload as the JSON it was sent as, digits a double cannot carry included', () => {
  const json = '{"externalId":"P1","prices":[{"amount":12345678901234567.89,"currency":"NOK"}]}';
  const kept = encodePayloadJson(7, json);
  expect(kept).toBe(`7|j${json}`);
  const { version, payload } = decodePayload(Buffer.from(kept));
  expect(version).toBe(7);
  const amount = (payload as { prices: { amount: unknown }[] }).prices[0]?.amount;
  expect(amount).toEqual(new ExactNumber('12345678901234567.89'));
});

it('deflates a long payload and reads it back', () => {
  const payload = { externalId: 'P1', description: 'Varm ullgenser i myk merinoull. '.repeat(30) };
  const kept = encodePayload(3, payload);
  expect(tagOf(kept)).toBe('z');
  expect(Buffer.from(kept).length).toBeLessThan(JSON.stringify(payload).length / 2);
  expect(decodePayload(Buffer.from(kept))).toEqual({ version: 3, payload });
});

it('keeps a deletion without a payload', () => {
  expect(decodePayload(Buffer.from(encodeDeleted(4)))).toEqual({ version: 4 });
  expect(decodePayload(Buffer.from(encodePayload(4, undefined)))).toEqual({ version: 4 });
});
