/** `ferry call ID --all`: every page of a read, followed as the platform's are, in one document. */
import { UsageError } from '../../errors/index.js';
import type { PagedRead } from '../../interface/index.js';

export interface AllPages {
  /** The status of the last page's answer. */
  status: number;
  pages: number;
  items: unknown[];
}

export async function readAll(read: PagedRead): Promise<AllPages> {
  const { readPages } = await import('../../interface/index.js');
  const operation = read.client.binding(read.operationId).operation;
  if (operation.kind !== 'read') {
    throw new UsageError(
      `--all follows the pages of a read; ${read.operationId} is a ${operation.method}.`,
    );
  }
  const all: AllPages = { status: 0, pages: 0, items: [] };
  for await (const page of readPages(read)) {
    all.status = page.status;
    all.pages = page.number;
    for (const item of page.items) all.items.push(item);
  }
  return all;
}
