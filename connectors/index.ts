/**
 * The front door of connectors: connectors and sources. The layers above import what they use of
 * it from here, never one of its modules (.ci/check-imports.mjs); this file re-exports exactly
 * those names.
 */
export { SourceNotFoundError, SourceUnchangedError } from './errors.js';
export { readSource, type ReadSourceResult } from './read-source.js';
export {
  connectorForMediaType,
  connectorForPath,
  connectorNames,
  getConnector,
} from './registry.js';
export { copySource } from './sources/copy-source.js';
export { folderFiles } from './sources/folder.js';
export { parseHostKey } from './sources/host-key.js';
export { isRemoteAddress, remoteSpecOf, remoteWhere } from './sources/remote-address.js';
export type { RemoteDrop, RemoteEntry, S3Spec, SftpSpec } from './sources/remote-types.js';
export type { SourceSpec, Validators } from './sources/types.js';
export { openDrop, openUrl } from './sources/open-lazily.js';
export { urlName } from './sources/url-name.js';
export { type InvisibleMode, invisibleProblem, stripInvisible } from './text/invisible-chars.js';
export type { ReadMeta } from './types.js';
export { validateConnectorOptions } from './validate-options.js';
