/**
 * An http(s) URL as a source: GET with undici, retried (p-retry) on network errors and 5xx/408/429
 * answers before the body starts; redirects followed. Credentials in the URL become a Basic
 * Authorization header, and the name records carry has neither credentials nor query. A 304 to a
 * conditional request (If-None-Match in `headers`) is SourceUnchangedError.
 */
import pRetry, { AbortError } from 'p-retry';
import { Agent, interceptors, request } from 'undici';
import { isFerryError } from '../../src/errors/index.js';
import { SourceError, SourceNotFoundError, SourceUnchangedError } from '../errors.js';
import type { OpenedSource, SourceContext, Validators } from './types.js';
import { urlName } from './url-name.js';

const CONNECT_TIMEOUT_MS = 10_000;
const HEADERS_TIMEOUT_MS = 30_000;
const BODY_IDLE_TIMEOUT_MS = 60_000;
const MAX_REDIRECTIONS = 5;

function parseUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    // The text is not echoed: it may carry credentials.
    throw new SourceNotFoundError('The source URL is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SourceNotFoundError(`${urlName(url)}: only http and https URLs can be read.`);
  }
  return url;
}

function isRetriedStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

export async function openUrl(
  spec: { url: string; headers?: Record<string, string> },
  context: SourceContext = {},
): Promise<OpenedSource> {
  const url = parseUrl(spec.url);
  const headers: Record<string, string> = { ...spec.headers };
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    headers.authorization ??= `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    url.username = '';
    url.password = '';
  }
  const name = urlName(url);
  const agent = new Agent({ connect: { timeout: CONNECT_TIMEOUT_MS } });
  const dispatcher = agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTIONS }));
  try {
    const response = await pRetry(
      async () => {
        const res = await request(url, {
          method: 'GET',
          headers,
          dispatcher,
          signal: context.signal,
          headersTimeout: HEADERS_TIMEOUT_MS,
          bodyTimeout: BODY_IDLE_TIMEOUT_MS,
        });
        if (res.statusCode >= 200 && res.statusCode < 300) return res;
        await res.body.dump();
        if (res.statusCode === 304) {
          throw new AbortError(
            new SourceUnchangedError(`${name} has not changed since it was last read (HTTP 304).`, {
              url: name,
            }),
          );
        }
        const error = new SourceError(`${name} answered HTTP ${res.statusCode}.`, {
          url: name,
          status: res.statusCode,
        });
        if (isRetriedStatus(res.statusCode)) throw error;
        throw new AbortError(error);
      },
      {
        retries: context.urlRetries ?? 3,
        minTimeout: 200,
        maxTimeout: 2_000,
        signal: context.signal,
      },
    );
    response.body.once('close', () => void agent.close());
    const contentType = String(response.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase();
    const header = (h: string): string | undefined => {
      const value = response.headers[h];
      return typeof value === 'string' ? value : undefined;
    };
    const validators: Validators = {};
    if (header('etag')) validators.etag = header('etag')!;
    if (header('last-modified')) validators.lastModified = header('last-modified')!;
    return {
      name,
      stream: response.body,
      hint: url.pathname,
      ...(contentType ? { contentType } : {}),
      ...(validators.etag || validators.lastModified ? { validators } : {}),
    };
  } catch (error) {
    await agent.close();
    if (isFerryError(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new SourceError(`${name} could not be fetched: ${code ?? (error as Error).message}.`, {
      url: name,
    });
  }
}
