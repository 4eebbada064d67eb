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

/**
 * `quote`: whether errors may carry the parser's words, which can quote the text; false for a
 * document the user did not name (one a `$ref` led to): its errors then give the line only.
 */
export function parseText(source: string, text: string, quote = true): Record<string, unknown> {
  const body = text.replace(/^\uFEFF/, '');
  let value: unknown;
  if (body.trimStart().startsWith('{')) {
    try {
      value = JSON.parse(body);
    } catch (error) {
      const at = /position (\d+)/.exec((error as Error).message);
      const where = at ? ` (line ${lineOf(body, Number(at[1]))})` : '';
      const why = quote ? `: ${(error as Error).message}` : '';
      throw new OpenApiError(source, '', `is not valid JSON${where}${why}`);
    }
  } else {
    const doc = parseDocument(body, { uniqueKeys: false });
    const first = doc.errors[0];
    if (first) {
      const line = first.linePos?.[0].line;
      throw new OpenApiError(
        source,
        '',
        `is neither JSON nor valid YAML${line ? ` (line ${line})` : ''}${quote ? `: ${first.message.split('\n')[0]}` : ''}`,
      );
    }
    try {
      value = doc.toJS({ maxAliasCount: 10_000 });
    } catch (error) {
      const why = quote ? `: ${(error as Error).message}` : '';
      throw new OpenApiError(source, '', `YAML cannot be expanded${why}`);
    }
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new OpenApiError(source, '', 'is not an OpenAPI document (expected an object)');
  }
  return value as Record<string, unknown>;
}
