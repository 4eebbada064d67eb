import type { Command } from '../command.js';
import { callCommand } from './call.js';
import { cancelCommand } from './cancel.js';
import { configCheckCommand } from './config-check.js';
import { demoCommand } from './demo.js';
import { dlqExportCommand } from './dlq-export.js';
import { dlqListCommand } from './dlq-list.js';
import { dlqPurgeCommand } from './dlq-purge.js';
import { dlqReplayCommand } from './dlq-replay.js';
import { dlqShowCommand } from './dlq-show.js';
import { operationsCommand } from './operations.js';
import { planCommand } from './plan.js';
import { readCommand } from './read.js';
import { runCommand } from './run.js';
import { runsCommand } from './runs.js';
import { schedulesPauseCommand, schedulesResumeCommand } from './schedules-pause.js';
import { schedulesSyncCommand } from './schedules-sync.js';
import { schedulesCommand } from './schedules.js';
import { serveCommand } from './serve.js';
import { simulatorCommand } from './simulator.js';
import { statusCommand } from './status.js';
import { workerCommand } from './worker.js';

/** Every command of the `ferry` binary, in the order `ferry --help` lists them. */
export const COMMANDS: readonly Command[] = [
  operationsCommand,
  readCommand,
  planCommand,
  runCommand,
  cancelCommand,
  runsCommand,
  workerCommand,
  statusCommand,
  serveCommand,
  schedulesCommand,
  schedulesSyncCommand,
  schedulesPauseCommand,
  schedulesResumeCommand,
  dlqListCommand,
  dlqShowCommand,
  dlqReplayCommand,
  dlqPurgeCommand,
  dlqExportCommand,
  callCommand,
  configCheckCommand,
  simulatorCommand,
  demoCommand,
];
