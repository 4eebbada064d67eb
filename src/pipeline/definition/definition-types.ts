import type { Binding, Operation } from '../../interface/index.js';
import type { MappingPlan } from '../mapping/compile-entity.js';
import type { FieldIssue } from '../mapping/field-types.js';
import type { ChangeKind, DeliveryItem } from '../types.js';
import type { LookupTable } from '../lookups/lookup-table.js';
import type { EntityFile, FileLookupSpec, PipelineFile, SourceFile } from './pipeline-schema.js';

export interface OperationRef {
  operation: Operation;
  binding: Binding;
  /**
   * The JSON this operation sends for a payload, where the platform's description makes it other
   * than JSON.stringify's (decimal strings written as JSON numbers: payload-contract.ts).
   */
  json?: (payload: unknown) => string;
  /**
   * Checks a planned item's body as it goes on the wire against the description (deletes and
   * patches: contract/wire-check.ts); throws BodyShapeError when it cannot be sent so.
   */
  check?: (item: DeliveryItem) => void;
}

/** An entity's payloads against the platform's description (payload-contract.ts). */
export interface EntityContract {
  /** Pushes an issue per rule of the request schema of `kind`'s operation the payload breaks. */
  check(payload: Record<string, unknown>, kind: ChangeKind, issues: FieldIssue[]): void;
}

/** One entity of a loaded pipeline, compiled and checked against the catalog. */
export interface EntityDefinition {
  index: number;
  name: string;
  resource: string;
  mapping: MappingPlan;
  /** Operation per change kind; `upsert` falls back to `patch` for new entities. */
  operations: Partial<Record<ChangeKind, OperationRef>>;
  duplicates: 'error' | 'first' | 'group';
  /** Index of the entity whose creation makes this one be sent even when unchanged. */
  sendWithNew: number | undefined;
  /** changes mode: the change kinds that give this entity. */
  on: ReadonlySet<ChangeKind>;
  /** snapshot mode with a patch operation: keep per-field hashes and send changed fields only. */
  patchChanged: boolean;
  /** The entity as written in the pipeline file (what `ferry interface check` fits to the schema). */
  spec: EntityFile;
  /** Set when `interface.openapi` names the platform's description: its payloads are checked. */
  contract?: EntityContract;
}

export interface PipelineDefinition {
  /** The pipeline's name on its platform: `catalog`, or `catalog@north` (config/platforms.ts). */
  name: string;
  /** The platform it is compiled for and delivers to (`default`: the top-level interface). */
  platform: string;
  description?: string;
  /** The pipeline file, as shown in messages. */
  file: string;
  mode: 'snapshot' | 'changes';
  source: SourceFile;
  schedule: PipelineFile['schedule'];
  /** When its runs should be done (window-schema.ts). */
  window: PipelineFile['window'];
  /** Relative source paths are tried against the working directory, then this directory. */
  baseDir: string;
  changeType: PipelineFile['changeType'];
  deletes: PipelineFile['deletes'];
  /** Value guards (none: not checked). */
  guards?: PipelineFile['guards'];
  entities: EntityDefinition[];
  /** Operation ids per stage, in delivery order. */
  stages: string[][];
  /** Webhooks and the run endings they are told of. */
  notify: PipelineFile['notify'];
  /** The lookups read from files (docs/PIPELINES.md, Lookups from files), by name. */
  fileLookups: Readonly<Record<string, FileLookupSpec>>;
  /** The same pipeline compiled with its file lookups' tables (lookups/with-lookup-files.ts). */
  withLookupTables(tables: Readonly<Record<string, LookupTable>>): PipelineDefinition;
}
