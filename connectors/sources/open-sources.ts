import { openFile } from './file.js';
import { openFolder } from './folder.js';
import type { OpenedSource, SourceContext, SourceSpec } from './types.js';
import { openUrl } from './open-lazily.js';

/** The inputs of a source, opened one at a time (a folder gives one per matching file). */
export async function* openSources(
  spec: SourceSpec,
  context: SourceContext = {},
): AsyncGenerator<OpenedSource> {
  if ('file' in spec) yield await openFile(spec.file, spec.name);
  else if ('folder' in spec) yield* openFolder(spec.folder, spec.pattern, spec.name);
  else if ('url' in spec) yield await openUrl(spec, context);
  // Loaded when used: the SSH and AWS clients would slow every command's start (open-lazily.ts).
  else if ('sftp' in spec || 's3' in spec) yield* (await import('./remote.js')).openRemote(spec);
  else yield { name: 'stdin', stream: context.stdin ?? process.stdin, hint: '' };
}
