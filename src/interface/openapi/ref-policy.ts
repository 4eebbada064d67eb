/**
 * Where a description's `$ref`s may lead (docs/INTERFACE.md, Limits): inside its own document; to
 * files beside a local description (under its folder, after `..` and symlinks are resolved); to
 * http(s) URLs of the origin a remote description was fetched from. Anything else is refused
 * before it is read, so a description can neither read nor probe a file the user did not name.
 */
import { realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { OpenApiRefRefusedError } from './openapi-error.js';
import { isUrl } from './read-source.js';

/** What a description may read besides itself. */
export interface RefScope {
  /** The description's own URL (file: for a local one); relative `$ref`s resolve against it. */
  root: URL;
  /** A local description's folder, symlinks resolved; undefined for a remote one. */
  folder?: string;
}

/** Where `$ref`s may lead for a description read from `source` (a path or an http(s) URL). */
export async function scopeOf(source: string): Promise<RefScope> {
  if (isUrl(source)) return { root: new URL(source) };
  const path = resolve(source);
  const folder = await realpath(dirname(path)).catch(() => dirname(path));
  return { root: pathToFileURL(join(folder, basename(path))), folder };
}

const inside = (folder: string, path: string): boolean => {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** Where a `$ref` stands, for the refusal: the source and the pointer of the `$ref`. */
export interface RefSite {
  source: string;
  pointer: string;
}

/**
 * The document URL (no fragment) an external `$ref` written in the document at `from` leads to;
 * an OpenApiRefRefusedError when the scope does not allow it. Files are checked on their real path
 * (symlinks resolved) before they are opened.
 */
export async function allowedTarget(
  ref: string,
  from: URL,
  scope: RefScope,
  site: RefSite,
): Promise<URL> {
  const refuse = (why: string) => new OpenApiRefRefusedError(site.source, site.pointer, ref, why);
  let target: URL;
  try {
    target = new URL(ref, from);
  } catch {
    throw refuse('it is not a valid reference');
  }
  target.hash = '';
  if (scope.folder === undefined) {
    if (target.protocol !== 'http:' && target.protocol !== 'https:') {
      throw refuse(
        `a description fetched over http(s) may refer only to URLs of its own origin (${scope.root.origin})`,
      );
    }
    if (target.origin !== scope.root.origin) {
      throw refuse(
        `it leads to ${target.origin}, another origin than the description's (${scope.root.origin})`,
      );
    }
    return target;
  }
  if (target.protocol !== 'file:') {
    throw refuse(
      `a local description may refer only to files in its folder (${scope.folder}), not to ${target.protocol} URLs`,
    );
  }
  const outside = () =>
    refuse(
      `it leads outside the description's folder (${scope.folder}); a description may refer only to its own document and to files beside it`,
    );
  let path: string;
  try {
    path = fileURLToPath(target);
  } catch {
    throw refuse('it is not a valid file reference');
  }
  if (!inside(scope.folder, resolve(path))) throw outside();
  // A link inside the folder may point out of it: judged by where it leads.
  const real = await realpath(path).catch(() => undefined);
  if (real !== undefined && !inside(scope.folder, real)) throw outside();
  return pathToFileURL(real ?? resolve(path));
}
