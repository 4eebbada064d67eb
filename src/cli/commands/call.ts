import { STATUS_CODES } from 'node:http';
import { UsageError } from '../../errors/index.js';
import { readCallBody } from './call-body.js';
import {
  JSON_OPTION,
  flag,
  positiveIntOption,
  stringList,
  stringOption,
  writeJson,
  type Command,
} from '../command.js';
import { platformScoped } from '../pipeline-options.js';

/** `--path k=v` values as a record; a value may itself contain `=`. */
function keyValues(values: string[], option: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const pair of values) {
    const at = pair.indexOf('=');
    if (at <= 0) throw new UsageError(`--${option} expects k=v, got "${pair}".`);
    (out[pair.slice(0, at)] ??= []).push(pair.slice(at + 1));
  }
  return out;
}

/** The address a request went to: the base URL's origin (never its user info) and the path. */
function urlTried(baseUrl: string, path: string): string {
  return `${new URL(baseUrl).origin}${path}`;
}

/** Items per page `--all` asks for unless told. */
const ALL_PAGE_SIZE = 100;

/** A read's query for --all: one value per name. */
function singleValues(query: Record<string, string[]>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) {
    if (v.length > 1)
      throw new UsageError(`--query ${k} is given ${v.length} times; --all takes one.`);
    out[k] = v[0] as string;
  }
  return out;
}

function printable(body: unknown): string {
  if (body === null || body === undefined) return '';
  return typeof body === 'string' ? `${body}\n` : `${JSON.stringify(body, null, 2)}\n`;
}

export const callCommand: Command = {
  name: 'call',
  usage:
    'call <operationId> [--path k=v]... [--query k=v]... [--body JSON|@file] [--idempotency-key K] [--all [--page-size N]] [--json]',
  description: `
Sends one request through Ferry's client (listing check, bindings, auth, idempotency header) to
interface.baseUrl (FERRY_BASE_URL) with interface.auth (FERRY_TOKEN) in listing FERRY_LISTING.
With interface.openapi, requests take the shape of the description as it is now (read again), not
of the one pinned for runs: \`ferry interface check\` says whether they differ. Needs no Redis.
With --json: {status, headers, body}, plus error: {code, message} when the call failed.
--all follows a read's pages as the platform describes them (page numbers, a cursor or next URL
in the answer, a Link header) and prints {status, pages, items: [every item of every page]}.
Exit 0 for a 2xx (and a 404 to a DELETE), 1 when the platform answered with an error, 2 for bad
usage, configuration, or an operation outside the listing, 5 when the platform could not be
reached (a network failure, a timeout, a temporary failure: try again later), naming the URL tried.
Example: ferry call discountCodes.campaign.put --path discountCodeExternalId=SUMMER --body '{"campaignExternalId":"c1"}'`,
  options: {
    path: { type: 'string', multiple: true, placeholder: 'k=v', description: 'A path parameter.' },
    query: {
      type: 'string',
      multiple: true,
      placeholder: 'k=v',
      description: 'A query parameter; repeat a name to send several values.',
    },
    body: {
      type: 'string',
      placeholder: 'JSON|@file',
      description: 'The JSON body, inline or read from a file.',
    },
    'idempotency-key': {
      type: 'string',
      placeholder: 'K',
      description: 'Idempotency key of a write (default: a generated one).',
    },
    all: { type: 'boolean', description: "A read: every page, followed as the platform's are." },
    'page-size': {
      type: 'string',
      placeholder: 'N',
      description: `With --all: items per page asked for (default ${ALL_PAGE_SIZE}).`,
    },
    platform: {
      type: 'string',
      placeholder: 'NAME',
      description:
        'The platform to call (docs/PLATFORMS.md): its address, credential and description. Default: default.',
    },
    ...JSON_OPTION,
  },
  positionals: [1, 1],
  async run({ args, stdout, stderr, config: getConfig, contractConfig, logger, stopSignal }) {
    const { configWithContract, createInterfaceClient, InterfaceError } =
      await import('../../interface/index.js');
    const operationId = args.positionals[0] as string;
    const pathParams: Record<string, string> = {};
    for (const [k, v] of Object.entries(keyValues(stringList(args, 'path'), 'path'))) {
      if (v.length > 1) throw new UsageError(`--path ${k} is given ${v.length} times.`);
      pathParams[k] = v[0] as string;
    }
    const query = keyValues(stringList(args, 'query'), 'query');
    const body = readCallBody(stringOption(args, 'body'));
    const json = flag(args, 'json');

    const platform = stringOption(args, 'platform');
    const config =
      platform === undefined
        ? await contractConfig()
        : await configWithContract(await platformScoped(getConfig(), platform), stopSignal);
    const settings = config.interface;
    const baseUrl = settings.useDemo ? settings.demoBaseUrl : settings.baseUrl;
    const client = createInterfaceClient(settings, {
      logger: logger(),
      ...(config.platform ? { platform: config.platform } : {}),
    });
    try {
      if (flag(args, 'all')) {
        const { readAll } = await import('./call-all.js');
        const { checkDescribedRead } = await import('../../interface/index.js');
        checkDescribedRead(config, operationId);
        const pageSize = positiveIntOption(args, 'page-size') ?? ALL_PAGE_SIZE;
        const read = {
          client,
          delivery: config.delivery,
          operationId,
          pageSize,
          signal: stopSignal,
        };
        const all = await readAll({ ...read, query: singleValues(query) });
        if (json) await writeJson(stdout, all);
        else
          stdout.write(
            `HTTP ${all.status}: ${all.items.length} item(s) in ${all.pages} page(s)\n${printable(all.items)}`,
          );
        return 0;
      }
      const res = await client.call({
        operationId,
        pathParams,
        query,
        body,
        idempotencyKey: stringOption(args, 'idempotency-key'),
        signal: stopSignal,
      });
      if (json) await writeJson(stdout, res);
      else
        stdout.write(
          `HTTP ${res.status} ${STATUS_CODES[res.status] ?? ''}\n${printable(res.body)}`,
        );
      return 0;
    } catch (error) {
      if (!(error instanceof InterfaceError)) throw error;
      const { status, headers, body: answer } = error.context;
      if (json) {
        await writeJson(stdout, {
          status: status ?? null,
          headers: headers ?? {},
          body: answer ?? null,
          error: { code: error.code, message: error.message },
        });
      } else if (status !== undefined) {
        stdout.write(`HTTP ${status} ${STATUS_CODES[status] ?? ''}\n${printable(answer)}`);
      }
      // exitCode 5: the platform could not be reached (errors.ts); the URL tried, without a query.
      const tried = error.exitCode === 5 ? ` (tried ${urlTried(baseUrl, error.context.path)})` : '';
      stderr.write(`ferry call: ${error.message}${tried}\n`);
      return error.exitCode === 5 ? 5 : 1;
    } finally {
      await client.close();
    }
  },
};
