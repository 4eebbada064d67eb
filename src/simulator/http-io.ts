/** Reading request bodies and writing JSON answers on node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** An answer the simulator computed; stored as is under an idempotency key and replayed from there. */
export interface SimResponse {
  status: number;
  headers?: Record<string, string>;
  /** The JSON text of the body ('' for none). */
  body: string;
}

/** Error codes of the simulator's error bodies (`{error: {code, message}}`). */
export type SimErrorCode =
  | 'UNAUTHORIZED'
  | 'NOT_FOUND'
  | 'REQUEST_IN_PROGRESS'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'VALIDATION_FAILED'
  | 'REJECTED'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMITED'
  | 'INTERNAL';

export function jsonResponse(status: number, value: unknown, headers?: Record<string, string>) {
  return { status, headers, body: JSON.stringify(value) } satisfies SimResponse;
}

export function errorResponse(
  status: number,
  code: SimErrorCode,
  message: string,
  headers?: Record<string, string>,
): SimResponse {
  return jsonResponse(status, { error: { code, message } }, headers);
}

export class BodyTooLargeError extends Error {}

/** The request body as text; rejects with BodyTooLargeError past `maxBytes` (and stops reading). */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A body's JSON: undefined for an empty body, not ok for one that is not JSON. */
export function parseJson(raw: string): { ok: true; value: unknown } | { ok: false } {
  if (raw.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

export function send(res: ServerResponse, response: SimResponse): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string | number> = { ...response.headers };
  if (response.body) {
    headers['content-type'] ??= 'application/json; charset=utf-8';
    headers['content-length'] = Buffer.byteLength(response.body);
  } else {
    headers['content-length'] = 0;
  }
  res.writeHead(response.status, headers);
  res.end(response.body);
}

/** Ends the exchange with no answer at all: the client sees a reset connection. */
export function destroyConnection(req: IncomingMessage, res: ServerResponse): void {
  res.socket?.destroy();
  req.socket.destroy();
}
