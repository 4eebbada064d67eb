/**
 * The connectors Ferry knows, by name, by file extension, by media type and, as a last resort,
 * by the first bytes of the input.
 */
import { extname } from 'node:path';
import type { Connector } from './types.js';
import { csvConnector } from './csv/index.js';
import { UnknownConnectorError } from './errors.js';
import { jsonConnector } from './json/index.js';
import { detectBom } from './text/encoding.js';
import { xlsxConnector } from './xlsx/index.js';
import { xmlConnector } from './xml/index.js';

export { validateConnectorOptions } from './validate-options.js';

export const CONNECTORS: readonly Connector[] = [
  csvConnector,
  jsonConnector,
  xmlConnector,
  xlsxConnector,
];

export function connectorNames(): string[] {
  return CONNECTORS.map((c) => c.name);
}

/** The connector named `name`; an unknown name is an error that lists the known ones. */
export function getConnector(name: string): Connector {
  const connector = CONNECTORS.find((c) => c.name === name);
  if (!connector) {
    throw new UnknownConnectorError(
      `Unknown connector "${name}": the connectors are ${connectorNames().join(', ')}.`,
      { connector: name, known: connectorNames() },
    );
  }
  return connector;
}

/** The connector for a path's extension (`.csv` -> csv), if one claims it. */
export function connectorForPath(path: string): Connector | undefined {
  const ext = extname(path).toLowerCase();
  return ext ? CONNECTORS.find((c) => c.extensions.includes(ext)) : undefined;
}

/**
 * The connector for an HTTP media type (without parameters), if one declares it, by the type
 * itself or by its structured-syntax suffix (`application/atom+xml` -> xml).
 */
export function connectorForMediaType(mediaType: string | undefined): Connector | undefined {
  if (!mediaType) return undefined;
  const type = mediaType.toLowerCase();
  const plus = type.lastIndexOf('+');
  const suffix = plus === -1 ? undefined : type.slice(plus);
  return (
    CONNECTORS.find((c) => c.mediaTypes.includes(type)) ??
    (suffix ? CONNECTORS.find((c) => c.mediaTypes.includes(suffix)) : undefined)
  );
}

/** The connector the first bytes suggest: a zip is xlsx, `<` xml, `[` or `{` json, else csv. */
export function connectorForContent(head: Buffer): Connector {
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return xlsxConnector;
  const bom = detectBom(head);
  const text = new TextDecoder(bom?.encoding ?? 'latin1').decode(head.subarray(0, 1024));
  const first = text.trimStart()[0];
  if (first === '<') return xmlConnector;
  if (first === '[' || first === '{') return jsonConnector;
  return csvConnector;
}
