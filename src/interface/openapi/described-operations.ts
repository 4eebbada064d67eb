/**
 * The operations a description declares: method, path template, parameters (path-level merged with
 * operation-level), the JSON request body's schema and the security requirements that apply.
 */
import type { HttpMethod } from '../catalog.js';
import { pointerOf } from './json-pointer.js';
import type { OpenApiDoc } from './load-description.js';

export type Schema = Record<string, unknown>;

export interface DescribedParameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required: boolean;
  schema: Schema | undefined;
  /** As the description states it (OpenAPI's default for query parameters is true). */
  explode?: boolean;
}

export interface DescribedOperation {
  method: HttpMethod;
  path: string;
  operationId?: string;
  /** JSON pointer of the operation object in the description. */
  pointer: string;
  parameters: DescribedParameter[];
  /** Schema of the application/json (or +json) request body, when there is one. */
  requestSchema: Schema | undefined;
  /** Per requirement of `security`, index for index: the scopes it names (OAuth2). */
  scopes: string[][];
  /**
   * The description says the operation needs no credential: its `security` (or the global one) is
   * `[]` or holds an empty requirement `{}`. A description that says nothing of security leaves
   * this false: Ferry then sends the configured credential.
   */
  open: boolean;
  requestRequired: boolean;
  /** Names of the security schemes that apply (any one of the requirements satisfies). */
  security: string[][];
  /** The described answers by status (`200`, `207`, `4XX`, `default`). */
  responses: Record<string, DescribedResponse>;
}

export interface DescribedResponse {
  /** The JSON media type of its body (`application/problem+json`), when it has one. */
  mediaType: string | undefined;
  schema: Schema | undefined;
  /** Its header names, lower-cased. */
  headers: string[];
}

const METHODS: readonly HttpMethod[] = ['GET', 'PUT', 'PATCH', 'DELETE', 'POST'];

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

function parametersOf(list: unknown): DescribedParameter[] {
  if (!Array.isArray(list)) return [];
  return list.filter(isObject).map((p) => ({
    name: String(p.name),
    in: p.in as DescribedParameter['in'],
    required: p.required === true,
    schema: isObject(p.schema) ? p.schema : undefined,
    ...(typeof p.explode === 'boolean' ? { explode: p.explode } : {}),
  }));
}

const JSON_TYPE = /^application\/([\w.-]+\+)?json\b/i;

function jsonSchemaOf(body: unknown): Schema | undefined {
  return isObject(body) ? jsonMediaOf(body.content)?.schema : undefined;
}

function jsonMediaOf(content: unknown): { mediaType: string; schema?: Schema } | undefined {
  if (!isObject(content)) return undefined;
  const entry = Object.entries(content).find(([type]) => JSON_TYPE.test(type));
  if (!entry) return undefined;
  const media = entry[1];
  return {
    mediaType: entry[0],
    ...(isObject(media) && isObject(media.schema) ? { schema: media.schema } : {}),
  };
}

function responsesOf(responses: unknown): Record<string, DescribedResponse> {
  const out: Record<string, DescribedResponse> = {};
  if (!isObject(responses)) return out;
  for (const [status, answer] of Object.entries(responses)) {
    if (!isObject(answer)) continue;
    const media = jsonMediaOf(answer.content);
    out[status] = {
      mediaType: media?.mediaType,
      schema: media?.schema,
      headers: isObject(answer.headers)
        ? Object.keys(answer.headers).map((h) => h.toLowerCase())
        : [],
    };
  }
  return out;
}

function securityOf(list: unknown): string[][] | undefined {
  if (!Array.isArray(list)) return undefined;
  return list.filter(isObject).map((req) => Object.keys(req));
}

/** The scopes of each requirement, and whether the list leaves the operation open. */
function scopesOf(list: unknown): Pick<DescribedOperation, 'scopes' | 'open'> {
  if (!Array.isArray(list)) return { scopes: [], open: false };
  const requirements = list.filter(isObject);
  return {
    open: requirements.length === 0 || requirements.some((req) => Object.keys(req).length === 0),
    scopes: requirements.map((req) =>
      Object.values(req).flatMap((s) => (Array.isArray(s) ? s.map(String) : [])),
    ),
  };
}

export function describedOperations(doc: OpenApiDoc): DescribedOperation[] {
  const out: DescribedOperation[] = [];
  const global = securityOf(doc.security) ?? [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, unknown>)) {
    if (!isObject(item)) continue;
    const shared = parametersOf(item.parameters);
    for (const method of METHODS) {
      const op = item[method.toLowerCase()];
      if (!isObject(op)) continue;
      const own = parametersOf(op.parameters);
      const parameters = [
        ...shared.filter((s) => !own.some((o) => o.name === s.name && o.in === s.in)),
        ...own,
      ];
      out.push({
        method,
        path,
        ...(typeof op.operationId === 'string' ? { operationId: op.operationId } : {}),
        pointer: pointerOf(['paths', path, method.toLowerCase()]),
        parameters,
        requestSchema: jsonSchemaOf(op.requestBody),
        ...scopesOf(Array.isArray(op.security) ? op.security : doc.security),
        requestRequired: isObject(op.requestBody) && op.requestBody.required === true,
        security: securityOf(op.security) ?? global,
        responses: responsesOf(op.responses),
      });
    }
  }
  return out;
}
