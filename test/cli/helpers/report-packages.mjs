// `node --import ./report-packages.mjs ...`: prints to stderr each package the process loads from
// node_modules, once: `loaded <package>`. For tests of what a command does not load.
import { register } from 'node:module';

const hooks = `
const seen = new Set();
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(result.url);
  if (m && !seen.has(m[1])) {
    seen.add(m[1]);
    process.stderr.write('loaded ' + m[1] + '\\n');
  }
  return result;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
