import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * A support script run in a node process of its own, for what `kill -9` of a process leaves
 * behind for real: it resolves once the child printed `word` (the child is then holding its job),
 * and fails if the child ended before. `killHard` sends SIGKILL and waits for the end, asserting
 * that the signal, not some other end, stopped it.
 */
export async function childHolding(
  script: URL,
  args: string[],
  word: string,
): Promise<{ killHard: () => Promise<void> }> {
  const child = spawn(process.execPath, [fileURLToPath(script), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<NodeJS.Signals | null>((res) => child.on('exit', (_code, signal) => res(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      if (out.includes(word)) resolve();
    });
    child.on('exit', () => reject(new Error(`child ended before it printed ${word}: ${out} ${err}`)));
  });
  return {
    killHard: async () => {
      expect(child.kill('SIGKILL')).toBe(true);
      expect(await exited).toBe('SIGKILL');
    },
  };
}
