/**
 * The front door of src/schedules: runs on a cron. The layers above import what they use of it
 * from here, never one of its modules (.ci/check-imports.mjs); this file re-exports exactly those
 * names.
 */
export { listSchedules, type ScheduleView } from './list-schedules.js';
export { pauseSchedule, resumeSchedule } from './pause-schedule.js';
export { openScheduleQueue, type TickData } from './schedule-queue.js';
export { startScheduleWorker } from './schedule-worker.js';
export { syncSchedules } from './sync-schedules.js';
