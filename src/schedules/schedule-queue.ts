/** The queue of schedule ticks and the id of each pipeline's BullMQ job scheduler on it. */
import { quiet, type RedisClient } from '../redis/index.js';
import { Queue } from 'bullmq';
import { SCHEDULE_QUEUE, type DeliveryKeys } from '../runs/index.js';

/** What a tick's job carries. */
export interface TickData {
  pipeline: string;
}

const ID_PREFIX = 'pipeline:';

export function schedulerId(pipeline: string): string {
  return `${ID_PREFIX}${pipeline}`;
}

/** The pipeline of a scheduler id, or undefined for one Ferry did not make. */
export function pipelineOfScheduler(id: string): string | undefined {
  return id.startsWith(ID_PREFIX) ? id.slice(ID_PREFIX.length) : undefined;
}

export function openScheduleQueue(redis: RedisClient, keys: DeliveryKeys): Queue<TickData> {
  return quiet(new Queue<TickData>(SCHEDULE_QUEUE, { connection: redis, prefix: keys.bullPrefix }));
}
