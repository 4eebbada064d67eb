/**
 * A Swagger 2.0 description as the OpenAPI 3.0 document Ferry reads (docs/INTERFACE.md, Swagger
 * 2.0): `definitions` -> `components.schemas`, a `body` parameter -> `requestBody` in each type of
 * `consumes`, response schemas in each type of `produces`, other parameters' types -> `schema`,
 * `securityDefinitions` -> `components.securitySchemes` (an `application` flow is OAuth2 client
 * credentials), `host` + `basePath` -> `servers`, `x-nullable` -> `nullable`. `$ref`s are rewritten,
 * not followed: the result is dereferenced once, as a 3.0 document is.
 */
/** A description document as parsed (the shape load-description.ts names OpenApiDoc). */
type OpenApiDoc = Record<string, unknown>;

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

const REFS: [RegExp, string][] = [
  [/^#\/definitions\//, '#/components/schemas/'],
  [/^#\/parameters\//, '#/components/parameters/'],
  [/^#\/responses\//, '#/components/responses/'],
];

/** A schema (or anything holding schemas) with its `$ref`s and 2.0-only words rewritten. */
function schema30(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(schema30);
  if (!isObject(value)) return value;
  const out: Json = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') {
      const rule = REFS.find(([from]) => from.test(child));
      out.$ref = rule ? child.replace(rule[0], rule[1]) : child;
    } else if (key === 'x-nullable') {
      if (child === true) out.nullable = true;
    } else if (key === 'type' && child === 'file') {
      out.type = 'string';
      out.format = 'binary';
    } else if (key === 'discriminator' && typeof child === 'string') {
      out.discriminator = { propertyName: child };
    } else out[key] = schema30(child);
  }
  return out;
}

/** What a 2.0 non-body parameter says of its value, as a 3.0 schema. */
const SCHEMA_WORDS = [
  'type',
  'format',
  'items',
  'enum',
  'default',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'uniqueItems',
  'multipleOf',
  'x-nullable',
];

function parameter30(p: Json): Json {
  const schema: Json = {};
  for (const word of SCHEMA_WORDS) if (word in p) schema[word] = p[word];
  const out: Json = { name: p.name, in: p.in, schema: schema30(schema) };
  if (p.required === true || p.in === 'path') out.required = true;
  if (typeof p.description === 'string') out.description = p.description;
  // `csv` (2.0's default for arrays) is 3.0's `form` without explode; `multi` is exploded.
  if (p.type === 'array' && p.in === 'query') out.explode = p.collectionFormat === 'multi';
  return out;
}

/** A local `#/parameters/X` or `#/responses/X` followed once (2.0 body parameters must be inlined). */
function local(doc: Json, value: unknown, section: 'parameters' | 'responses'): unknown {
  if (!isObject(value) || typeof value.$ref !== 'string') return value;
  const m = new RegExp(`^#/${section}/(.+)$`).exec(value.$ref);
  const table = doc[section];
  return m && isObject(table)
    ? (table[m[1]!.replace(/~1/g, '/').replace(/~0/g, '~')] ?? value)
    : value;
}

const jsonTypes = (types: unknown): string[] => {
  const list = Array.isArray(types) ? types.filter((t): t is string => typeof t === 'string') : [];
  return list.length > 0 ? list : ['application/json'];
};

function content(types: string[], schema: unknown): Json {
  return Object.fromEntries(types.map((t) => [t, { schema: schema30(schema) }]));
}

function response30(doc: Json, answer: unknown, produces: string[]): unknown {
  const r = local(doc, answer, 'responses');
  if (!isObject(r)) return r;
  if (typeof r.$ref === 'string') return schema30(r);
  const out: Json = { description: typeof r.description === 'string' ? r.description : '' };
  if (r.schema !== undefined) out.content = content(produces, r.schema);
  if (isObject(r.headers)) {
    out.headers = Object.fromEntries(
      Object.entries(r.headers).map(([name, h]) => {
        const { description, ...rest } = isObject(h) ? h : {};
        return [name, { ...(description ? { description } : {}), schema: schema30(rest) }];
      }),
    );
  }
  return out;
}

function operation30(doc: Json, op: Json, shared: unknown[]): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(op)) {
    if (!['parameters', 'responses', 'consumes', 'produces', 'schemes'].includes(key)) {
      out[key] = value;
    }
  }
  const consumes = jsonTypes(op.consumes ?? doc.consumes);
  const produces = jsonTypes(op.produces ?? doc.produces);
  const own = Array.isArray(op.parameters) ? op.parameters : [];
  const params = [...shared, ...own].map((p) => local(doc, p, 'parameters')).filter(isObject);
  const byKey = new Map(params.map((p) => [`${String(p.in)} ${String(p.name)}`, p])); // own win
  const parameters: Json[] = [];
  const form: Json = { type: 'object', properties: {} as Json, required: [] as string[] };
  for (const p of byKey.values()) {
    if (p.in === 'body') {
      out.requestBody = { required: p.required === true, content: content(consumes, p.schema) };
    } else if (p.in === 'formData') {
      (form.properties as Json)[String(p.name)] = (parameter30(p).schema as Json) ?? {};
      if (p.required === true) (form.required as string[]).push(String(p.name));
    } else parameters.push(parameter30(p));
  }
  if (Object.keys(form.properties as Json).length > 0 && !out.requestBody) {
    const type = consumes.find((t) => /form/.test(t)) ?? 'application/x-www-form-urlencoded';
    out.requestBody = { content: { [type]: { schema: form } } };
  }
  if (parameters.length > 0) out.parameters = parameters;
  out.responses = Object.fromEntries(
    Object.entries(isObject(op.responses) ? op.responses : {}).map(([status, r]) => [
      status,
      response30(doc, r, produces),
    ]),
  );
  return out;
}

function securityScheme30(s: unknown): unknown {
  if (!isObject(s)) return s;
  const described = typeof s.description === 'string' ? { description: s.description } : {};
  if (s.type === 'basic') return { type: 'http', scheme: 'basic', ...described };
  if (s.type !== 'oauth2') return s;
  const scopes = isObject(s.scopes) ? s.scopes : {};
  const flows: Record<string, Json> = {
    application: { clientCredentials: { tokenUrl: s.tokenUrl, scopes } },
    password: { password: { tokenUrl: s.tokenUrl, scopes } },
    implicit: { implicit: { authorizationUrl: s.authorizationUrl, scopes } },
    accessCode: {
      authorizationCode: { authorizationUrl: s.authorizationUrl, tokenUrl: s.tokenUrl, scopes },
    },
  };
  return { type: 'oauth2', flows: flows[String(s.flow)] ?? {}, ...described };
}

function servers(doc: Json): Json[] | undefined {
  const basePath = typeof doc.basePath === 'string' ? doc.basePath : '';
  if (typeof doc.host !== 'string') return basePath ? [{ url: basePath }] : undefined;
  const schemes = Array.isArray(doc.schemes) && doc.schemes.length > 0 ? doc.schemes : ['https'];
  return schemes.map((scheme) => ({ url: `${String(scheme)}://${doc.host as string}${basePath}` }));
}

const mapValues = (value: unknown, map: (v: unknown) => unknown): Json =>
  Object.fromEntries(Object.entries(isObject(value) ? value : {}).map(([k, v]) => [k, map(v)]));

/** The 3.0 document a Swagger 2.0 one states. */
export function fromSwagger2(doc: OpenApiDoc): OpenApiDoc {
  const paths: Json = {};
  const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];
  for (const [path, item] of Object.entries(isObject(doc.paths) ? doc.paths : {})) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    const out: Json = {};
    for (const [key, value] of Object.entries(item)) {
      if (methods.includes(key) && isObject(value)) out[key] = operation30(doc, value, shared);
      else if (key !== 'parameters') out[key] = value;
    }
    paths[path] = out;
  }
  const parameters = mapValues(doc.parameters, (p) =>
    isObject(p) && p.in !== 'body' && p.in !== 'formData' ? parameter30(p) : undefined,
  );
  const produces = jsonTypes(doc.produces);
  const result: Json = {
    openapi: '3.0.3',
    info: doc.info,
    ...(servers(doc) ? { servers: servers(doc) } : {}),
    paths,
    components: {
      schemas: mapValues(doc.definitions, schema30),
      parameters: Object.fromEntries(Object.entries(parameters).filter(([, p]) => p !== undefined)),
      responses: mapValues(doc.responses, (r) => response30(doc, r, produces)),
      securitySchemes: mapValues(doc.securityDefinitions, securityScheme30),
    },
  };
  for (const key of ['security', 'tags', 'externalDocs']) {
    if (doc[key] !== undefined) result[key] = doc[key];
  }
  for (const [key, value] of Object.entries(doc)) if (key.startsWith('x-')) result[key] = value;
  return result;
}
