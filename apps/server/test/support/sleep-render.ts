import fs from 'node:fs';

/** A render function for the file pool's tests: holds its worker for `ms`, then writes a file. */
export async function sleepRender(arg: { ms: number }, out: string, onProgress: (done: number) => void) {
  await new Promise((resolve) => setTimeout(resolve, arg.ms));
  fs.writeFileSync(out, 'done');
  onProgress(1);
}
