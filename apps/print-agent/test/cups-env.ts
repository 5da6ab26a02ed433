import { execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * A real CUPS scheduler with cups-pdf queues for the tests: started here when it is not
 * running, never skipped. Jobs print to PDF files in cups-pdf's output folder.
 */

const exec = promisify(execFile);
const C = { ...process.env, LANG: 'C', LC_ALL: 'C' };

const INSTALL = 'apt-get install cups cups-client printer-driver-cups-pdf poppler-utils';

async function has(cmd: string): Promise<boolean> {
  try {
    await exec('sh', ['-c', `command -v ${cmd}`], { env: C });
    return true;
  } catch {
    return false;
  }
}

export async function sh(cmd: string, args: string[]): Promise<string> {
  const { stdout } = await exec(cmd, args, { env: C });
  return stdout;
}

async function schedulerRunning(): Promise<boolean> {
  try {
    return /scheduler is running/.test(await sh('lpstat', ['-r']));
  } catch {
    return false;
  }
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  ms = 90_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`Timed out after ${ms / 1000}s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The cups-pdf driver's PPD as installed (Debian: /usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd). */
async function cupsPdfPpd(): Promise<string[]> {
  for (const f of ['/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd', '/usr/share/ppd/cups-pdf/CUPS-PDF_noopt.ppd']) {
    if (existsSync(f)) return ['-P', f];
  }
  const models = await sh('lpinfo', ['-m']);
  const m = /^(\S*cups-pdf\S*\.ppd)\s/im.exec(models);
  if (!m) throw new Error(`No cups-pdf driver found (lpinfo -m): ${INSTALL}`);
  return ['-m', m[1]];
}

/** Starts cupsd when needed; fails with the packages to install when CUPS or cups-pdf is missing. */
export async function ensureCups(): Promise<void> {
  const missing: string[] = [];
  for (const cmd of ['cupsd', 'lpadmin', 'lpstat', 'lp', 'pdfinfo']) if (!(await has(cmd))) missing.push(cmd);
  if (!existsSync('/usr/lib/cups/backend/cups-pdf')) missing.push('the cups-pdf backend');
  if (missing.length > 0) {
    throw new Error(
      `The print agent tests need CUPS with cups-pdf and pdfinfo (missing: ${missing.join(', ')}): ${INSTALL}`,
    );
  }
  if (await schedulerRunning()) return;
  // cupsd puts itself in the background; a second start while another is starting is harmless.
  await new Promise<void>((resolve, reject) => {
    const child = spawn('cupsd', [], { stdio: 'ignore', env: C });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
  await waitFor('the CUPS scheduler to start', async () => ((await schedulerRunning()) ? true : undefined), 30_000);
}

export async function addPdfQueue(name: string): Promise<void> {
  await sh('lpadmin', ['-p', name, '-E', '-v', 'cups-pdf:/', ...(await cupsPdfPpd())]);
  await waitFor(`queue ${name}`, async () =>
    (await sh('lpstat', ['-p'])).includes(`printer ${name} `) ? true : undefined,
  );
}

export async function removeQueue(name: string): Promise<void> {
  try {
    await sh('lpadmin', ['-x', name]);
  } catch {
    // already gone
  }
}

/** cups-pdf's output folder for jobs of the current user (cups-pdf.conf `Out`). */
export function cupsPdfOut(): string {
  let out = '/var/spool/cups-pdf/${USER}';
  try {
    const line = readFileSync('/etc/cups/cups-pdf.conf', 'utf8')
      .split('\n')
      .find((l) => /^Out\s/.test(l));
    if (line) out = line.replace(/^Out\s+/, '').trim();
  } catch {
    // the compiled-in default
  }
  const user = os.userInfo();
  return out.replaceAll('${HOME}', user.homedir).replaceAll('${USER}', user.username);
}

/**
 * Waits for the file cups-pdf writes for a job whose title starts with `title`, complete:
 * Ghostscript writes it in place, so it counts once the queue has no unfinished job left.
 */
export async function waitForPdf(dir: string, title: string, queue: string): Promise<string> {
  return waitFor(`cups-pdf to write ${title}*.pdf into ${dir}`, async () => {
    if (!existsSync(dir)) return undefined;
    const f = readdirSync(dir).find((n) => n.startsWith(title) && n.endsWith('.pdf'));
    if (!f) return undefined;
    if ((await sh('lpstat', ['-W', 'not-completed', '-o', queue])).trim() !== '') return undefined;
    return path.join(dir, f);
  });
}

export async function pdfInfo(file: string): Promise<{ pages: number; size: string; title: string }> {
  const out = await sh('pdfinfo', [file]);
  const field = (k: string) => new RegExp(`^${k}:\\s*(.*)$`, 'm').exec(out)?.[1].trim() ?? '';
  return { pages: Number(field('Pages')), size: field('Page size'), title: field('Title') };
}
