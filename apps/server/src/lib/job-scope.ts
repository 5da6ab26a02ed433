import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Whether the code running is a queue job's (lib/jobs.ts): both backends run a job's body inside
 * `runAsJob`. A job already has its turn of the queue, so what it builds (lib/workbook-job.ts)
 * is built where it runs: queued again it would wait for a turn the job itself holds (a print
 * job is its customer's heavy job, and so would be the render it asked for).
 */
const jobScope = new AsyncLocalStorage<string>();
export const runAsJob = <T>(kind: string, fn: () => T): T => jobScope.run(kind, fn);
export const insideJob = (): boolean => jobScope.getStore() !== undefined;
