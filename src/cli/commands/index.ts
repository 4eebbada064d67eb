import type { Command } from '../command.js';
import { configCheckCommand } from './config-check.js';
import { operationsCommand } from './operations.js';

/** Every command of the `ferry` binary, in the order `ferry --help` lists them. */
export const COMMANDS: readonly Command[] = [operationsCommand, configCheckCommand];
