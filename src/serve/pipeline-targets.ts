/**
 * The pipelines the console lists and acts on: each pipeline file under each platform it delivers
 * to, by its qualified name (`catalog` on default, `catalog@north`), as runs, dead letters and
 * state name them. A file that cannot be read stands under its own name on `default`, so that its
 * problem is shown.
 */
import { type FerryConfig } from '../config/index.js';
import {
  loadPipeline,
  pipelineNames,
  listedTargets,
  type PipelineDefinition,
} from '../pipeline/index.js';
import { NotFoundError } from '../runs/index.js';
import { passes, sees, type PlatformFilter } from './platform-scope.js';
import type { Principal } from './tokens.js';

export interface PipelineTarget {
  /** The qualified name: the file's name, with `@platform` off the default platform. */
  name: string;
  /** The pipeline file's name. */
  file: string;
}

/** Every pipeline file under each platform it delivers to, in file order, in the filter. */
export function listTargets(config: FerryConfig, filter: PlatformFilter): PipelineTarget[] {
  return pipelineNames(config).flatMap((file) =>
    listedTargets(file, config)
      .filter((name) => passes(filter, name))
      .map((name) => ({ name, file })),
  );
}

/**
 * The pipeline a route names: a qualified name, or a file's own name when the file runs under
 * one name only (a file of `platform: north` is `catalog@north`). 404, naming only the pipelines
 * the principal sees, for one that does not exist or that it does not see.
 */
export function resolveTarget(
  config: FerryConfig,
  principal: Principal,
  name: string,
): PipelineTarget {
  const all = listTargets(config, undefined);
  const found =
    all.find((t) => t.name === name) ??
    single(all.filter((t) => t.file === name && !name.includes('@')));
  if (found && sees(principal, found.name)) return found;
  throw pipelineNotFound(config, principal, name);
}

/** What a pipeline that does not exist answers, naming only the pipelines the principal sees. */
export function pipelineNotFound(
  config: FerryConfig,
  principal: Principal,
  name: string,
): NotFoundError {
  const visible = listTargets(config, undefined).filter((t) => sees(principal, t.name));
  // A file that fans out is one pipeline per platform: say which names there are to use.
  const fanOut = visible.filter((t) => t.file === name).map((t) => t.name);
  if (fanOut.length > 1) {
    return new NotFoundError(
      'pipeline',
      name,
      `It delivers to several platforms, a pipeline on each: name one (${fanOut.join(', ')}).`,
    );
  }
  return new NotFoundError(
    'pipeline',
    name,
    `Pipelines: ${visible.map((t) => t.name).join(', ') || 'none'}.`,
  );
}

function single<T>(items: T[]): T | undefined {
  return items.length === 1 ? items[0] : undefined;
}

/** The import pipeline an entity trace is of (404 as resolveTarget). */
export function tracedTarget(
  ctx: { config: FerryConfig },
  principal: Principal,
  name: string,
): PipelineDefinition {
  return loadPipeline(resolveTarget(ctx.config, principal, name).name, ctx.config);
}
