/**
 * Which platforms a request sees. A token scoped by `serve.tokens[].platforms` (and the browser
 * sessions it opens) sees and acts on those only: a run, dead letter, entity or pipeline of another
 * platform answers 404 as an unknown id does, so nothing tells that it exists. `?platform=NAME`
 * narrows a list or page to one platform. An item's platform is its pipeline's: the qualified name
 * (`catalog@north`) a run, a dead letter and state are kept under.
 */
import { platformNames, splitPipelineName, type FerryConfig } from '../config/index.js';
import { NotFoundError } from '../runs/index.js';
import type { ServeContext } from './serve-context.js';
import type { Principal } from './tokens.js';

/** The platforms a list keeps; undefined: every one (no filter at all). */
export type PlatformFilter = ReadonlySet<string> | undefined;

/** What `GET /api/runs/{id}` says of a run it does not know. */
const RUN_HINT = 'Run `ferry status` to see the runs in progress.';

export function platformOfPipeline(pipeline: string): string {
  return splitPipelineName(pipeline).platform;
}

/** The platforms a principal sees, in the config's order (`default` first). */
export function visiblePlatforms(config: FerryConfig, principal: Principal): string[] {
  const all = platformNames(config);
  const scope = principal.platforms;
  return scope ? all.filter((p) => scope.includes(p)) : all;
}

/**
 * What a list shows: the principal's platforms, narrowed to `asked` when given. A platform the
 * principal does not see (or that does not exist) answers 404, naming only those it sees.
 */
export function platformFilter(
  config: FerryConfig,
  principal: Principal,
  asked?: string,
): PlatformFilter {
  if (asked) {
    const visible = visiblePlatforms(config, principal);
    if (!visible.includes(asked)) {
      throw new NotFoundError('platform', asked, `Platforms: ${visible.join(', ')}.`);
    }
    return new Set([asked]);
  }
  return principal.platforms ? new Set(principal.platforms) : undefined;
}

/** Whether an item of this (qualified) pipeline is in the filter. */
export function passes(filter: PlatformFilter, pipeline: string): boolean {
  return filter === undefined || filter.has(platformOfPipeline(pipeline));
}

/** Whether the principal sees an item of this (qualified) pipeline. */
export function sees(principal: Principal, pipeline: string): boolean {
  return passes(principal.platforms && new Set(principal.platforms), pipeline);
}

/**
 * The platform of a run, read from its record; a run of a platform the principal does not see
 * answers as an unknown run (`hint`: the words the route's own lookup gives an unknown id).
 * Undefined for a run that has no record (the route's lookup then answers 404 itself).
 */
export async function runPlatform(
  ctx: ServeContext,
  principal: Principal,
  runId: string,
  hint = RUN_HINT,
): Promise<string | undefined> {
  const pipeline = await ctx.redis.hget(ctx.keys.run(runId), 'pipeline');
  if (pipeline === null) return undefined;
  if (!sees(principal, pipeline)) throw new NotFoundError('run', runId, hint);
  return platformOfPipeline(pipeline);
}
