/**
 * A webhook body's signature: `Ferry-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of
 * "<t>.<body>" with notifications.secret>`. The time inside lets a receiver refuse replays.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'ferry-signature';

export function signature(secret: string, body: string, at = Date.now()): string {
  const t = Math.floor(at / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
