/**
 * The text of a description -> a plain object. JSON and YAML are told apart by content (a JSON
 * document starts with `{`), never by file name or media type; YAML anchors and aliases are
 * expanded (with a cap, so a crafted alias bomb stops instead of exhausting memory).
 */
import { parseDocument } from 'yaml';
import { OpenApiError } from './openapi-error.js';

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i += 1) if (text.charCodeAt(i) === 10) line += 1;
  return line;
}

export function parseText(source: string, text: string): Record<string, unknown> {
  const body = text.replace(/^\uFEFF/, '');
  let value: unknown;
  if (body.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(body);
    } catch (error) {
      const at = /position (\d+)/.exec((error as Error).message);
      const where = at ? ` (line ${lineOf(body, Number(at[1]))})` : '';
      throw new OpenApiError(source, '', `is not valid JSON${where}: ${(error as Error).message}`);
    }
  } else {
    const doc = parseDocument(body, { uniqueKeys: false });
    const first = doc.errors[0];
    if (first) {
      const line = first.linePos?.[0].line;
      throw new OpenApiError(
        source,
        '',
        `is neither JSON nor valid YAML${line ? ` (line ${line})` : ''}: ${first.message.split('\n')[0]}`,
      );
    }
    try {
      value = doc.toJS({ maxAliasCount: 10_000 });
    } catch (error) {
      throw new OpenApiError(source, '', `YAML cannot be expanded: ${(error as Error).message}`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new OpenApiError(source, '', 'is not an OpenAPI document (expected an object)');
  }
  return value as Record<string, unknown>;
}
