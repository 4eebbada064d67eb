import { FerryError } from '../../errors/index.js';

/**
 * The platform's OpenAPI description cannot be read, is not OpenAPI 3.0/3.1, or has a `$ref` that
 * leads nowhere. Names the source (file or URL) and the JSON pointer of the offending place. Exit 2.
 */
export class OpenApiError extends FerryError<'FERRY_OPENAPI_INVALID'> {
  readonly code = 'FERRY_OPENAPI_INVALID';
  override readonly exitCode = 2;

  constructor(source: string, pointer: string, message: string) {
    super(`${source}${pointer ? ` at ${pointer}` : ''}: ${message}`, { source, pointer });
  }
}
