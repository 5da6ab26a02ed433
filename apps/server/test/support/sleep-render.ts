import fs from 'node:fs';

/** A render function for the file pool's tests: holds its worker for `ms`, then writes a file. */
export async function sleepRender(arg: { ms: number }, out: string, onProgress: (done: number) => void) {
  await new Promise((resolve) => setTimeout(resolve, arg.ms));
  fs.writeFileSync(out, 'done');
  onProgress(1);
}

/**
 * A render that holds its worker until the file `arg.gate` exists: the test opens each gate when
 * it chooses, so the order in which jobs get a worker does not depend on how long anything takes.
 */
export async function gatedRender(arg: { gate: string }, out: string, onProgress: (done: number) => void) {
  while (!fs.existsSync(arg.gate)) await new Promise((resolve) => setTimeout(resolve, 10));
  fs.writeFileSync(out, 'done');
  onProgress(1);
}
