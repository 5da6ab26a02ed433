/**
 * The real print agent (apps/print-agent) for printing specs: started as a child process on a port
 * of this run, CUPS out of reach (an empty PATH: no lp, no lpstat), so it offers only its "Save to
 * PDF folder" printer; the PDFs it receives are read back with pdfinfo.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MAIN_PORT } from '../servers.ts';

export const SAVE_TO_FOLDER = 'Save to PDF folder';
const root = resolve(import.meta.dirname, '../..');

export interface FolderAgent {
  port: number;
  /** The PDFs in the folder, oldest first, with their page counts. */
  pdfs(): { name: string; pages: number }[];
  /** A PDF of the folder, by its name. */
  read(name: string): Buffer;
  stop(): void;
}

export interface AgentOptions {
  /** The console addresses it serves (PRINT_AGENT_ORIGINS): this run's console by default. */
  origins?: string;
  /**
   * The CUPS scheduler's socket: the machine's lp and lpstat are then in reach (its PATH) and
   * pointed there. By default an empty PATH keeps CUPS out of reach.
   */
  cupsServer?: string;
}

export async function startFolderAgent(port: number, options: AgentOptions = {}): Promise<FolderAgent> {
  const dir = mkdtempSync(join(tmpdir(), 'print-e2e-'));
  const pdfDir = join(dir, 'pdf');
  const emptyPath = join(dir, 'bin');
  mkdirSync(emptyPath);
  const agent: ChildProcess = spawn(
    join(root, 'node_modules/.bin/node'),
    [join(root, 'apps/print-agent/src/main.ts')],
    {
      env: {
        PATH: options.cupsServer ? process.env.PATH : emptyPath,
        HOME: dir,
        ...(options.cupsServer && { CUPS_SERVER: options.cupsServer }),
        PRINT_AGENT_ORIGINS: options.origins ?? `http://localhost:${MAIN_PORT}`,
        PRINT_AGENT_PORT: String(port),
        PRINT_AGENT_CAINIAO_PORT: 'off',
        PRINT_AGENT_PDF_DIR: pdfDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`print agent did not start:\n${output}`)), 20_000);
    const read = (b: Buffer) => {
      output += b.toString();
      if (output.includes(SAVE_TO_FOLDER)) {
        clearTimeout(timer);
        ok();
      }
    };
    agent.stdout!.on('data', read);
    agent.stderr!.on('data', read);
    agent.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`print agent exited ${code}:\n${output}`));
    });
  });
  return {
    port,
    pdfs() {
      let names: string[];
      try {
        names = readdirSync(pdfDir).filter((n) => n.endsWith('.pdf'));
      } catch {
        return [];
      }
      return names.sort().map((name) => {
        const info = execFileSync('pdfinfo', [join(pdfDir, name)]).toString();
        return { name, pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN) };
      });
    },
    read: (name) => readFileSync(join(pdfDir, name)),
    stop: () => agent.kill('SIGTERM'),
  };
}
