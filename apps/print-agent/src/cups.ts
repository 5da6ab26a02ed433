import { spawn } from 'node:child_process';

/**
 * CUPS through its command-line clients (`lpstat`, `lp`), present on Linux and macOS. Their
 * output is parsed in the C locale: translated messages would not match.
 */

export interface OsPrinter {
  name: string;
  enabled: boolean;
}

export class CupsError extends Error {}
export class CupsMissing extends CupsError {}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

export function run(cmd: string, args: string[], stdin?: Buffer): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      // The children inherit the environment (PATH, CUPS_SERVER, …); only the locale is forced.
      // eslint-disable-next-line no-restricted-syntax
      env: { ...process.env, LANG: 'C', LC_ALL: 'C', LC_MESSAGES: 'C' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'ENOENT') {
        reject(new CupsMissing(`${cmd} is not installed: printing through the OS needs CUPS (lp, lpstat)`));
      } else reject(e);
    });
    // lp may exit before reading all of stdin (unknown printer): that EPIPE is not the error to report.
    child.stdin.on('error', () => {});
    child.on('close', (code) =>
      resolve({
        code: code ?? 1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8').trim(),
      }),
    );
    child.stdin.end(stdin);
  });
}

/** `lpstat -p`: "printer NAME is idle.  enabled since …", "printer NAME disabled since …". */
export function parsePrinters(stdout: string): OsPrinter[] {
  const printers: OsPrinter[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^printer (\S+) (.*)$/.exec(line);
    if (m) printers.push({ name: m[1], enabled: !/^disabled\b/.test(m[2]) });
  }
  return printers;
}

/** `lpstat -d`: "system default destination: NAME" or "no system default destination". */
export function parseDefault(stdout: string): string | null {
  const m = /^system default destination: (\S+)/m.exec(stdout);
  return m ? m[1] : null;
}

/** `lpstat -v`: "device for NAME: URI". */
export function parseDevices(stdout: string): Map<string, string> {
  const devices = new Map<string, string>();
  for (const line of stdout.split('\n')) {
    const m = /^device for (\S+): (.*)$/.exec(line);
    if (m) devices.set(m[1], m[2].trim());
  }
  return devices;
}

function failure(what: string, r: Run): CupsError {
  if (/scheduler is not running/i.test(r.stderr)) {
    return new CupsError(`${what}: the CUPS scheduler is not running (start cupsd)`);
  }
  return new CupsError(`${what}: ${r.stderr || `exit code ${r.code}`}`);
}

// lpstat answers exit code 1 with this when no queue exists: an empty list, not a failure.
const noDestinations = /no destinations added/i;

/**
 * Whether CUPS can be asked at all: its tools installed, its scheduler answering. `lpstat -r`
 * exits 0 either way and says which; only the words tell.
 */
export async function schedulerState(): Promise<'running' | 'not-running' | 'missing'> {
  try {
    const r = await run('lpstat', ['-r']);
    return /scheduler is running/i.test(r.stdout) ? 'running' : 'not-running';
  } catch (e) {
    if (e instanceof CupsMissing) return 'missing';
    throw e;
  }
}

export async function listPrinters(): Promise<OsPrinter[]> {
  const r = await run('lpstat', ['-p']);
  if (r.code !== 0 && !noDestinations.test(r.stderr)) throw failure('Cannot list printers', r);
  return parsePrinters(r.stdout);
}

export async function defaultPrinter(): Promise<string | null> {
  const r = await run('lpstat', ['-d']);
  if (r.code !== 0 && !noDestinations.test(r.stderr)) throw failure('Cannot read the default printer', r);
  return parseDefault(r.stdout);
}

export async function devices(): Promise<Map<string, string>> {
  const r = await run('lpstat', ['-v']);
  if (r.code !== 0 && !noDestinations.test(r.stderr)) throw failure('Cannot read printer devices', r);
  return parseDevices(r.stdout);
}

export class PrinterNotFound extends CupsError {
  constructor(printer: string) {
    super(`Printer "${printer}" could not be found`);
  }
}

/** Submits one PDF as one job; answers the CUPS job id ("Queue-12"). */
export async function lp(printer: string, options: string[], pdf: Buffer): Promise<string> {
  // "-" reads the document from stdin: no temporary file to clean up.
  const r = await run('lp', ['-d', printer, ...options, '-'], pdf);
  if (r.code !== 0) {
    // With no scheduler to ask, lp says the printer "does not exist": the scheduler is the cause.
    if ((await schedulerState()) === 'not-running')
      throw failure(`Printer "${printer}" refused the job`, { ...r, stderr: 'scheduler is not running' });
    if (/does not exist|not found/i.test(r.stderr)) throw new PrinterNotFound(printer);
    throw failure(`Printer "${printer}" refused the job`, r);
  }
  const m = /request id is (\S+)/.exec(r.stdout);
  return m ? m[1] : '';
}
