import fs from 'node:fs';

/**
 * A render function for the render queue's tests: holds its worker until the file `gate` exists
 * (the test opens it), then writes `text`. A file, since it runs in a worker thread.
 */
export async function gateRender(arg: { gate: string; text: string }, out: string, onProgress: (done: number) => void) {
  while (!fs.existsSync(arg.gate)) await new Promise((resolve) => setTimeout(resolve, 20));
  fs.writeFileSync(out, arg.text);
  onProgress(1);
}

/** A render function that fails, as a render of bad data would. */
export async function failingRender(): Promise<void> {
  throw new Error('render broke on purpose');
}
