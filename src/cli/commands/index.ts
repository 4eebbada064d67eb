import type { Command } from '../command.js';
import { callCommand } from './call.js';
import { configCheckCommand } from './config-check.js';
import { operationsCommand } from './operations.js';
import { planCommand } from './plan.js';
import { readCommand } from './read.js';
import { simulatorCommand } from './simulator.js';

/** Every command of the `ferry` binary, in the order `ferry --help` lists them. */
export const COMMANDS: readonly Command[] = [
  operationsCommand,
  readCommand,
  planCommand,
  callCommand,
  configCheckCommand,
  simulatorCommand,
];
