/**
 * Makes a Connector from its description, its option schema and a `read` that receives the
 * options as that schema types them: the options are declared once.
 */
import type { z } from 'zod';
import type { Connector, ConnectorAbout, ConnectorInput, ReadItem, ReadMeta } from './types.js';
import { validateOptions } from './validate-options.js';

export interface ConnectorSpec<S extends z.ZodObject> extends ConnectorAbout {
  options: S;
  read(input: ConnectorInput, options: z.output<S>, meta: ReadMeta): AsyncIterable<ReadItem>;
}

export function defineConnector<S extends z.ZodObject>(spec: ConnectorSpec<S>): Connector {
  const { read, ...about } = spec;
  return {
    ...about,
    reader(options, path, source) {
      const checked = validateOptions(spec.name, spec.options, options, path, source);
      return (input, meta) => read(input, checked, meta);
    },
  };
}
