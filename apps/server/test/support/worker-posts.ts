import { type Transferable, Worker } from 'node:worker_threads';
import { vi } from 'vitest';

/**
 * What was handed to worker threads while `f` ran (issue 37): a test of "this work runs off the
 * event loop" asserts that the work went to a worker, not how free the loop felt meanwhile, which
 * a loaded machine decides. Each message is kept as posted (a transferred buffer is empty on this
 * side afterwards, so a file's size is noted at once).
 */
export async function postedToWorkers<T>(f: () => Promise<T>) {
  const posted: { message: Record<string, unknown>; fileBytes?: number }[] = [];
  const post = Worker.prototype.postMessage;
  const spy = vi.spyOn(Worker.prototype, 'postMessage').mockImplementation(function (
    this: Worker,
    message: unknown,
    transfer?: readonly Transferable[],
  ) {
    if (message && typeof message === 'object') {
      const file = (message as { file?: unknown }).file;
      posted.push({
        message: message as Record<string, unknown>,
        fileBytes: file instanceof Uint8Array ? file.byteLength : undefined,
      });
    }
    return post.call(this, message, transfer as Transferable[]);
  });
  try {
    return { result: await f(), posted };
  } finally {
    spy.mockRestore();
  }
}
