/**
 * `ferry interface check`: the description against the catalog (matched, missing, extra, listing),
 * the bindings in use and where each setting came from, every import pipeline against the request
 * schemas, and `interface.auth` against the security scheme (docs/INTERFACE.md, The platform's
 * OpenAPI description).
 */
import {
  type DeleteStyle,
  type FerryConfig,
  type Listing,
  platformOf,
  splitPipelineName,
} from '../../config/index.js';
import { isFerryError } from '../../errors/index.js';
import {
  bindingOrigins,
  resolveBindings,
  type BindingOrigin,
  type BindingSetting,
  OPERATIONS,
  checkAuth,
  withDescribedBindings,
  describedBindings,
  describedOperations,
  type DescribedOperation,
  type Description,
  matchCatalog,
} from '../../interface/index.js';
import { loadAnyPipeline, pipelineNames, pipelineTargets } from '../definition/load-pipeline.js';
import { fitPipeline, type ContractProblem } from './fit-pipeline.js';

export interface BindingInUse {
  operationId: string;
  path: string;
  body: 'items' | 'object' | 'none';
  envelope: string | null;
  maxItems: number;
  deleteStyle: DeleteStyle;
  deleteQueryParam: string;
  keyField: string;
  /** Sent without any credential (`security: []`). */
  public: boolean;
  /** OAuth2 scopes its token carries; null: interface.auth.scope. */
  scopes: readonly string[] | null;
  origins: Record<BindingSetting, BindingOrigin>;
}

export interface InterfaceCheck {
  source: string;
  title?: string;
  version?: string;
  sha256: string;
  listing: Listing | null;
  operations: {
    operationId: string;
    method: string;
    path: string;
    status: 'matched' | 'missing';
  }[];
  extra: { method: string; path: string }[];
  /** The pipelines checked (import pipelines). */
  pipelines: string[];
  bindings: BindingInUse[];
  problems: ContractProblem[];
}

export function checkInterface(description: Description, config: FerryConfig): InterfaceCheck {
  const match = matchCatalog(describedOperations(description.doc));
  const described = describedBindings(match);
  const configured = config.interface.bindings;
  const bindings = resolveBindings(configured, described);
  const origins = bindingOrigins(configured, described);
  const running = withDescribedBindings(
    { ...config, interface: { ...config.interface, openapi: description.source } },
    described,
  );
  const problems: ContractProblem[] = [];
  const used = new Map<string, DescribedOperation>();
  const pipelines: string[] = [];
  // The pipelines that run on the config's platform (docs/PLATFORMS.md), under their names there.
  const platform = platformOf(config);
  for (const file of pipelineNames(config)) {
    let loaded;
    let name = file;
    try {
      const target = pipelineTargets(file, config).find(
        (t) => splitPipelineName(t).platform === platform,
      );
      if (target === undefined) continue;
      name = target;
      loaded = loadAnyPipeline(target, running);
    } catch (error) {
      if (!isFerryError(error)) throw error;
      problems.push({ code: 'PIPELINE_INVALID', message: error.message, pipeline: name });
      continue;
    }
    if (loaded.direction !== 'import') continue;
    pipelines.push(name);
    problems.push(...fitPipeline(loaded.definition, match));
    for (const entity of loaded.definition.entities) {
      for (const ref of Object.values(entity.operations)) {
        const op = match.matched.get(ref.operation.id);
        if (op) used.set(ref.operation.id, op);
      }
    }
  }
  const authScope = used.size > 0 ? used : match.matched;
  const baseUrl = config.interface.useDemo
    ? config.interface.demoBaseUrl
    : config.interface.baseUrl;
  for (const p of checkAuth(description.doc, config.interface.auth, authScope, baseUrl)) {
    problems.push({
      code: 'AUTH_MISMATCH',
      message: p.message,
      ...(p.operationId ? { operationId: p.operationId } : {}),
    });
  }
  return {
    source: description.source,
    ...(description.title ? { title: description.title } : {}),
    ...(description.version ? { version: description.version } : {}),
    sha256: description.sha256,
    listing: match.listing,
    operations: OPERATIONS.map((o) => ({
      operationId: o.id,
      method: o.method,
      path: match.matched.get(o.id)?.path ?? o.path,
      status: match.matched.has(o.id) ? ('matched' as const) : ('missing' as const),
    })),
    extra: match.extra.map((d) => ({ method: d.method, path: d.path })),
    pipelines,
    bindings: [...match.matched.keys()].map((id) => {
      const b = bindings.get(id)!;
      return {
        operationId: id,
        path: b.path,
        body: b.body,
        envelope: b.envelope ?? null,
        maxItems: b.maxItems,
        deleteStyle: b.deleteStyle,
        deleteQueryParam: b.deleteQueryParam,
        keyField: b.keyField,
        public: b.public,
        scopes: b.scopes ?? null,
        origins: origins.get(id)!,
      };
    }),
    problems,
  };
}
