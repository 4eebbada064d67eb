/** Fills an export's file name pattern (pipeline/definition/file-pattern.ts) for one run. */
import { formatInstant, type FilePart } from '../pipeline/index.js';

export interface FileNameValues {
  /** The run's start (ms since the epoch), written in `timeZone`. */
  now: number;
  timeZone: string;
  seq: number;
  from: string | null;
  to: string | null;
  pipeline: string;
  runId: string;
}

/** A cursor value as part of a file name: characters a file system may refuse become `-`. */
function safe(text: string | null): string {
  return (text ?? '').replace(/[^A-Za-z0-9._-]/g, '-');
}

export function fileNameOf(parts: readonly FilePart[], v: FileNameValues): string {
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      switch (part.name) {
        case 'date':
          return formatInstant(v.now, part.arg ?? 'yyyy-mm-dd', v.timeZone);
        case 'time':
          return formatInstant(v.now, part.arg ?? 'hhmmss', v.timeZone);
        case 'seq':
          return String(v.seq).padStart(Number(part.arg ?? 1), '0');
        case 'from':
          return safe(v.from);
        case 'to':
          return safe(v.to);
        case 'pipeline':
          return v.pipeline;
        case 'runId':
          return v.runId;
      }
    })
    .join('');
}
