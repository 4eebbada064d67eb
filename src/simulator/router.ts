/** Routes of the simulator, derived from the catalog and the bindings: never a second list of paths. */
import type { Binding, Operation } from '../interface/index.js';

export interface RouteMatch {
  operation: Operation;
  binding: Binding;
  pathParams: Record<string, string>;
}

interface Route {
  binding: Binding;
  pattern: RegExp;
  params: string[];
}

function compile(binding: Binding): Route {
  const params: string[] = [];
  const source = binding.path
    .split(/(\{\w+\})/)
    .map((part) => {
      const param = /^\{(\w+)\}$/.exec(part);
      if (!param) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      params.push(param[1]!);
      return '([^/]+)';
    })
    .join('');
  return { binding, pattern: new RegExp(`^${source}/?$`), params };
}

export type Router = (method: string, pathname: string) => RouteMatch | undefined;

/**
 * A matcher for the operations served (those of one listing, or those a description declares);
 * anything else is not found.
 */
export function buildRouter(
  operations: readonly Operation[],
  bindings: Map<string, Binding>,
): Router {
  const byMethod = new Map<string, Route[]>();
  for (const operation of operations) {
    const binding = bindings.get(operation.id);
    if (!binding) throw new Error(`no binding for ${operation.id}`);
    const routes = byMethod.get(operation.method) ?? [];
    routes.push(compile(binding));
    byMethod.set(operation.method, routes);
  }
  return (method, pathname) => {
    for (const route of byMethod.get(method) ?? []) {
      const m = route.pattern.exec(pathname);
      if (!m) continue;
      const pathParams: Record<string, string> = {};
      try {
        route.params.forEach((name, i) => (pathParams[name] = decodeURIComponent(m[i + 1]!)));
      } catch {
        return undefined; // malformed percent-encoding: no such resource
      }
      return { operation: route.binding.operation, binding: route.binding, pathParams };
    }
    return undefined;
  };
}
