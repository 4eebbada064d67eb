import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { SourceError, SourceNotFoundError } from '../../connectors/errors.js';
import { readSource } from '../../connectors/read-source.js';
import { collect } from './helpers/read.js';
import { tempDir } from './helpers/tmp.js';

const tmp = tempDir();
afterAll(() => tmp.remove());

describe('file and folder sources', () => {
  it('reads the matching files of a folder in name order, each record naming its own file', async () => {
    const dir = join(tmp.dir, 'drop');
    mkdirSync(join(dir, 'sub.csv'), { recursive: true });
    writeFileSync(join(dir, 'b.csv'), 'id\nb1\nb2\n');
    writeFileSync(join(dir, 'a.csv'), 'id\na1\n');
    writeFileSync(join(dir, 'c.txt'), 'id\nc1\n');
    writeFileSync(join(dir, 'A.json'), '[{"id":"A"}]');
    const { items, meta } = readSource({ folder: dir, pattern: '*.{csv,json}' });
    const { records } = await collect(items);
    expect(records.map((r) => [r.source.file, r.source.line, r.fields.id])).toEqual([
      [join(dir, 'A.json'), 1, 'A'],
      [join(dir, 'a.csv'), 2, 'a1'],
      [join(dir, 'b.csv'), 2, 'b1'],
      [join(dir, 'b.csv'), 3, 'b2'],
    ]);
    expect(
      (meta.files as Array<{ source: string; connector: string }>).map((f) => [
        f.source,
        f.connector,
      ]),
    ).toEqual([
      [join(dir, 'A.json'), 'json'],
      [join(dir, 'a.csv'), 'csv'],
      [join(dir, 'b.csv'), 'csv'],
    ]);
  });

  it('refuses a folder with no matching file, and a missing file (exit code 2)', async () => {
    await expect(
      collect(readSource({ folder: tmp.dir, pattern: '*.nothing' }).items),
    ).rejects.toThrow(SourceError);
    const missing = await collect(readSource({ file: join(tmp.dir, 'missing.csv') }).items).catch(
      (e: unknown) => e,
    );
    expect(missing).toBeInstanceOf(SourceNotFoundError);
    expect((missing as SourceNotFoundError).exitCode).toBe(2);
    expect((missing as Error).message).toMatch(/missing\.csv: no such file/);
  });

  it('checks a named connector and its options before any reading', () => {
    expect(() =>
      readSource({ file: 'x.csv' }, 'csv', { delimiter: 'x' }, { optionsPath: 'source.options' }),
    ).toThrow(/source\.options\.delimiter: expected one of/);
    expect(() => readSource({ file: 'x.csv' }, 'parquet')).toThrow(
      /Unknown connector "parquet": the connectors are csv, json, xml, xlsx/,
    );
  });

  it('closes the input when the reader breaks off early', async () => {
    async function* rows(): AsyncGenerator<Buffer> {
      yield Buffer.from('id\n');
      for (let i = 0; ; i++) yield Buffer.from(`${i}\n`.repeat(1000));
    }
    const stdin = Readable.from(rows(), { objectMode: false });
    const { items } = readSource({ stdin: true }, 'csv', {}, { stdin });
    const seen: string[] = [];
    for await (const item of items) {
      if ('record' in item) seen.push(item.record.fields.id!);
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(['0', '0', '0']);
    expect(stdin.destroyed).toBe(true);
  });
});

describe('stdin source', () => {
  it('names its records stdin and picks the connector from the content', async () => {
    const { items, meta } = readSource(
      { stdin: true },
      undefined,
      {},
      { stdin: Readable.from([Buffer.from('{"a":"1"}\n{"a":"2"}\n')]) },
    );
    const { records } = await collect(items);
    expect(records.map((r) => [r.source.file, r.source.line, r.fields.a])).toEqual([
      ['stdin', 1, '1'],
      ['stdin', 2, '2'],
    ]);
    expect(meta).toMatchObject({ connector: 'json', connectorChosenBy: 'content' });
  });
});

describe('URL source', () => {
  let server: Server | undefined;
  const requests: IncomingMessage[] = [];
  afterEach(async () => {
    requests.length = 0;
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  async function serve(
    answer: (n: number, req: IncomingMessage) => { status: number; type?: string; body?: string },
  ): Promise<number> {
    server = createServer((req, res) => {
      requests.push(req);
      const a = answer(requests.length, req);
      res.writeHead(a.status, a.type ? { 'content-type': a.type } : {});
      res.end(a.body ?? '');
    });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  it('retries a 503, sends credentials as Basic auth and the query, and names records without them', async () => {
    const port = await serve((n) =>
      n === 1 ? { status: 503 } : { status: 200, body: 'id;name\r\n1;Øst\r\n' },
    );
    const url = `http://erp:s3cret@127.0.0.1:${port}/export/items.csv?token=abc`;
    const { items, meta } = readSource({ url });
    const { records } = await collect(items);
    expect(records).toEqual([
      {
        fields: { id: '1', name: 'Øst' },
        source: { file: `http://127.0.0.1:${port}/export/items.csv`, line: 2 },
      },
    ]);
    expect(meta.source).toBe(`http://127.0.0.1:${port}/export/items.csv`);
    expect(requests).toHaveLength(2);
    expect(requests[1]!.url).toBe('/export/items.csv?token=abc');
    expect(requests[1]!.headers.authorization).toBe(
      `Basic ${Buffer.from('erp:s3cret').toString('base64')}`,
    );
  });

  it('does not retry a 404, and its error carries no credentials', async () => {
    const port = await serve(() => ({ status: 404 }));
    const error = await collect(
      readSource({ url: `http://u:pw@127.0.0.1:${port}/x.csv?key=k` }).items,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceError);
    expect((error as Error).message).toBe(`http://127.0.0.1:${port}/x.csv answered HTTP 404.`);
    expect(requests).toHaveLength(1);
  });

  it('picks the connector from the media type when the path has no extension', async () => {
    const port = await serve(() => ({
      status: 200,
      type: 'application/x-ndjson; charset=utf-8',
      body: '{"id":"7"}\n',
    }));
    const { items, meta } = readSource({ url: `http://127.0.0.1:${port}/feed` });
    const { records } = await collect(items);
    expect(records.map((r) => r.fields.id)).toEqual(['7']);
    expect(meta).toMatchObject({ connector: 'json', connectorChosenBy: 'media type' });
  });

  it('gives up on a server that keeps failing, with a FERRY_SOURCE error', async () => {
    const port = await serve(() => ({ status: 500 }));
    const error = await collect(
      readSource({ url: `http://127.0.0.1:${port}/x.csv` }, undefined, {}, { urlRetries: 1 }).items,
    ).catch((e: unknown) => e);
    expect((error as SourceError).code).toBe('FERRY_SOURCE');
    expect(requests).toHaveLength(2);
  });
});
