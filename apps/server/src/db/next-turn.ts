/**
 * Resolves on the event loop's next turn (after the I/O waiting now). node:sqlite answers
 * synchronously, so a loop of queries awaited one after another never gives the loop a turn:
 * a long job yields with this between its steps, and every other user's call waits one step,
 * not the whole job.
 */
export const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
