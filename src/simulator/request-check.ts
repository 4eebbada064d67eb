/**
 * One described operation's request rules, compiled once (`--openapi`): its path, query and header
 * parameters (required, and each value against its schema) and its JSON body against the request
 * schema, with Ferry's own compiler (ajv 2020, 3.0 `nullable`, amounts checked on their digits).
 */
import type { IncomingMessage } from 'node:http';
import {
  type createSchemaCompiler,
  type DescribedOperation,
  isSchemaObject,
  type ItemContract,
  typesOf,
} from '../interface/index.js';
import { paramValue } from './param-values.js';

export interface RequestViolation {
  in: 'path' | 'query' | 'header' | 'body';
  /** The parameter's name (not for the body). */
  name?: string;
  /** Where in the parameter's value or the body, as a JSON pointer ('' for the whole). */
  instancePath: string;
  message: string;
}

export interface RequestInput {
  req: IncomingMessage;
  url: URL;
  /** The path's parameter values, in the order of the path. */
  pathValues: readonly string[];
  /** The parsed JSON body; undefined when there is none. */
  body: unknown;
}

export type RequestCheck = (input: RequestInput) => RequestViolation[];

type Compiler = ReturnType<typeof createSchemaCompiler>;

/** Header parameters OpenAPI says to ignore: the transport's own. */
const TRANSPORT_HEADERS = new Set(['accept', 'content-type', 'authorization']);

interface ParamRule {
  in: 'path' | 'query' | 'header';
  name: string;
  required: boolean;
  /** Position in the path (path parameters). */
  position: number;
  contract: ItemContract | undefined;
  schema: DescribedOperation['parameters'][number]['schema'];
  /** An array in one comma-separated value (`explode: false`), not a repeated parameter. */
  commaSeparated: boolean;
}

function textsOf(rule: ParamRule, input: RequestInput): string[] {
  if (rule.in === 'path') {
    const value = input.pathValues[rule.position];
    return value === undefined ? [] : [value];
  }
  if (rule.in === 'query') return input.url.searchParams.getAll(rule.name);
  const header = input.req.headers[rule.name.toLowerCase()];
  return header === undefined ? [] : Array.isArray(header) ? header : [header];
}

export function compileRequestCheck(op: DescribedOperation, compile: Compiler): RequestCheck {
  const pathNames = [...op.path.matchAll(/\{([^}/]+)\}/g)].map((m) => m[1]!);
  const rules: ParamRule[] = op.parameters
    .filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header')
    .filter((p) => !(p.in === 'header' && TRANSPORT_HEADERS.has(p.name.toLowerCase())))
    .map((p) => ({
      in: p.in as ParamRule['in'],
      name: p.name,
      required: p.required || p.in === 'path',
      position: pathNames.indexOf(p.name),
      schema: p.schema,
      commaSeparated:
        p.in === 'query' &&
        p.explode === false &&
        !!p.schema &&
        (typesOf(p.schema).includes('array') || isSchemaObject(p.schema.items)),
      contract: p.schema ? compile(p.schema, `${op.pointer}/parameters`) : undefined,
    }));
  const body = op.requestSchema
    ? compile(op.requestSchema, `${op.pointer}/requestBody`)
    : undefined;

  return (input) => {
    const out: RequestViolation[] = [];
    for (const rule of rules) {
      const texts = textsOf(rule, input);
      if (texts.length === 0) {
        if (rule.required) {
          out.push({ in: rule.in, name: rule.name, instancePath: '', message: 'is required' });
        }
        continue;
      }
      if (rule.commaSeparated && texts.length > 1) {
        const message = 'must be one comma-separated value (explode: false), not repeated';
        out.push({ in: rule.in, name: rule.name, instancePath: '', message });
        continue;
      }
      const values = rule.commaSeparated ? texts[0]!.split(',') : texts;
      const broken = rule.contract?.check(paramValue(values, rule.schema)) ?? [];
      for (const v of broken) {
        out.push({ in: rule.in, name: rule.name, instancePath: v.pointer, message: v.message });
      }
    }
    if (body && input.body === undefined && op.requestRequired) {
      out.push({ in: 'body', instancePath: '', message: 'a JSON body is required' });
    } else if (body && input.body !== undefined) {
      for (const v of body.check(input.body) ?? []) {
        out.push({ in: 'body', instancePath: v.pointer, message: v.message });
      }
    }
    return out;
  };
}
