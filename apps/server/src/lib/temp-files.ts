import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Where the server's temporary files go (workbooks and PDFs while they are built and sent):
 * `DATA_DIR/tmp`, never the OS temp folder. A file is removed when its download closes; one
 * left by a process that was killed mid-download (kill -9, a crash, the OOM killer) stays only
 * until the next start, which empties the folder before anything is built.
 *
 * The folder is process-wide, as the worker pool that writes into it is (lib/workbook-job.ts):
 * the app sets it at start. Several apps in one process (tests) each push theirs; the newest
 * one in use is taken, and closing an app gives the folder of the one before back.
 */
const folders: string[] = [];

/**
 * Empties `dir` (creating it if absent) and makes it the folder for temporary files. Returns
 * the count of leftovers removed and a function that stops using the folder (on close).
 */
export function useTempFolder(dir: string): { removed: number; release: () => void } {
  fs.mkdirSync(dir, { recursive: true });
  // Entries, not the folder itself: it may be a mount (a tmpfs) the operator set up.
  const leftovers = fs.readdirSync(dir);
  for (const name of leftovers) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  folders.push(dir);
  return {
    removed: leftovers.length,
    release: () => {
      const at = folders.lastIndexOf(dir);
      if (at >= 0) folders.splice(at, 1);
    },
  };
}

/** A new file name in the temporary folder (not created: the writer creates it). */
export function tempFile(ext: string): string {
  const dir = folders.at(-1);
  // A programming error, not a user's: every entry point (app, CLI, bench) sets the folder.
  if (!dir) throw new Error('no temporary folder: call useTempFolder(DATA_DIR/tmp) at start');
  return path.join(dir, `${randomUUID()}.${ext}`);
}
