/**
 * The openers whose clients are heavy to load (undici for URLs; ssh2 and the AWS SDK for drops),
 * loaded when one is first used: every command, and every thread that reads a file
 * (src/pipeline/planner/mapping-thread.ts), would otherwise load them to start.
 */
import type { RemoteDrop, S3Spec, SftpSpec } from './remote-types.js';
import type { OpenedSource, SourceContext } from './types.js';

export async function openUrl(
  spec: { url: string; headers?: Record<string, string> },
  context: SourceContext = {},
): Promise<OpenedSource> {
  return (await import('./url.js')).openUrl(spec, context);
}

export async function openDrop(spec: { sftp: SftpSpec } | { s3: S3Spec }): Promise<RemoteDrop> {
  return (await import('./remote.js')).openDrop(spec);
}
