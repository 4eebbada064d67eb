/**
 * A platform as its OpenAPI description states it (`ferry simulator --openapi FILE`): read with
 * Ferry's own loader, matched to the catalog and bound as Ferry binds it (so the simulator and Ferry
 * cannot read one description two ways), each operation's request rules and security compiled
 * once, and the description's text kept to serve. docs/SIMULATOR.md, "A described platform".
 */
import { stringify } from 'yaml';
import type { BindingConfig, Listing } from '../config/index.js';
import {
  createSchemaCompiler,
  describedBindings,
  describedOperations,
  type DescribedOperation,
  type Description,
  isSchemaObject,
  loadDescription,
  matchCatalog,
  OpenApiError,
  type Operation,
  OPERATIONS,
  parseText,
} from '../interface/index.js';
import { securityCheck, type SecurityCheck } from './described-auth.js';
import { compileRequestCheck, type RequestCheck } from './request-check.js';

export interface DescribedRules {
  check: RequestCheck;
  security: SecurityCheck;
  /** The query parameters it declares, its security's API keys in the query among them. */
  queryParams: ReadonlySet<string>;
  /** Its only described success is 204 No Content: a write it applies is answered so. */
  noContent: boolean;
}

/** Whether the operation's described successes are 204 alone. */
function answersNoContent(op: DescribedOperation): boolean {
  const successes = Object.keys(op.responses).filter((status) => /^2/.test(status));
  return successes.length > 0 && successes.every((status) => status === '204');
}

export interface DescribedPlatform {
  source: string;
  title: string | undefined;
  version: string | undefined;
  /** The listing the description is, when it is one (match-catalog.ts). */
  listing: Listing | null;
  /** The catalog operations the description declares: the ones served. */
  operations: Operation[];
  /** The binding settings the description states, as Ferry derives them. */
  bindings: Record<string, BindingConfig>;
  /** Per catalog id: the operation's request rules and security. */
  rules: Map<string, DescribedRules>;
  /** The description as JSON and as YAML; the text as read for its own format. */
  texts: { json: string; yaml: string };
  /** Its OAuth2 client-credentials token endpoint: the tokenUrl's path and the scopes declared. */
  tokenEndpoint: { path: string; scopes: ReadonlySet<string> } | undefined;
}

/** The first OAuth2 scheme with a client-credentials flow: where its tokens are issued. */
function tokenEndpointOf(doc: Record<string, unknown>): DescribedPlatform['tokenEndpoint'] {
  const components = isSchemaObject(doc.components) ? doc.components : {};
  const schemes = isSchemaObject(components.securitySchemes) ? components.securitySchemes : {};
  for (const scheme of Object.values(schemes)) {
    if (!isSchemaObject(scheme) || scheme.type !== 'oauth2' || !isSchemaObject(scheme.flows))
      continue;
    const flow = scheme.flows.clientCredentials;
    if (!isSchemaObject(flow) || typeof flow.tokenUrl !== 'string') continue;
    // Served at the URL's path: a relative tokenUrl is one below the simulator's root.
    const path = new URL(flow.tokenUrl, 'http://simulator/').pathname;
    const scopes = new Set(isSchemaObject(flow.scopes) ? Object.keys(flow.scopes) : []);
    return { path, scopes };
  }
  return undefined;
}

function textsOf(description: Description): DescribedPlatform['texts'] {
  const raw = parseText(description.source, description.text);
  const isJson = description.text
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('{');
  return {
    json: isJson ? description.text : JSON.stringify(raw, null, 2),
    yaml: isJson ? stringify(raw) : description.text,
  };
}

/** Reads `source` (a file or URL); an OpenApiError (exit 2) names source and pointer. */
export async function loadDescribedPlatform(source: string): Promise<DescribedPlatform> {
  const description = await loadDescription(source);
  const match = matchCatalog(describedOperations(description.doc));
  if (match.matched.size === 0) {
    throw new OpenApiError(
      source,
      '/paths',
      'declares none of the catalog operations (ferry operations)',
    );
  }
  const compile = createSchemaCompiler(description.source, description.dialect, true);
  const rules = new Map<string, DescribedRules>();
  for (const [id, op] of match.matched) {
    const security = securityCheck(description.doc, op);
    const params = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
    rules.set(id, {
      check: compileRequestCheck(op, compile),
      security,
      // An API key in the query is a parameter too: a read lets it by like a declared one.
      queryParams: new Set([...params, ...security.queryParams]),
      noContent: answersNoContent(op),
    });
  }
  return {
    source,
    title: description.title,
    version: description.version,
    listing: match.listing,
    operations: OPERATIONS.filter((o) => match.matched.has(o.id)),
    bindings: describedBindings(match),
    rules,
    texts: textsOf(description),
    tokenEndpoint: tokenEndpointOf(description.doc),
  };
}
