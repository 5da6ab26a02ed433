import { CupsError } from './cups.ts';
import { fetchPdf, fromBase64 } from './documents.ts';
import { firstPageSizeMm, pdfProblem, PrintError, type PrintCore } from './printing.ts';
import { INTERNAL_ERROR, type Sender } from './qz.ts';

/**
 * The basic commands of the Cainiao print component's WebSocket protocol (菜鸟打印组件, port
 * 13528): requests `{cmd, requestID, version: "1.0", …}`, responses `{cmd, requestID, status,
 * msg, …}` and, after a print, a `notifyPrintResult` notice. The real component renders Cainiao
 * templates (templateURL + data / encryptedData); this adapter prints PDFs only, given as
 * contents `{contentType: "pdf", data: "<base64>"}` or `{contentType: "pdf", url: "https://…"}`.
 */

export const CAINIAO_COMMANDS = ['getPrinters', 'getAgentInfo', 'print'];

type Out = Record<string, unknown>;

export async function handleCainiaoMessage(core: PrintCore, text: string, sender: Sender = {}): Promise<Out[]> {
  let msg: unknown;
  try {
    msg = JSON.parse(text);
  } catch {
    return [{ cmd: null, requestID: null, status: 'failed', msg: 'Invalid message: not JSON' }];
  }
  if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
    return [{ cmd: null, requestID: null, status: 'failed', msg: 'Invalid message: expected a JSON object' }];
  }
  const m = msg as { cmd?: unknown; requestID?: unknown; task?: unknown };
  const head = { cmd: m.cmd ?? null, requestID: m.requestID ?? null };
  try {
    switch (m.cmd) {
      case 'getPrinters': {
        const printers = await core.printers();
        return [
          {
            ...head,
            status: 'success',
            msg: '',
            defaultPrinter: printers.find((p) => p.default)?.name ?? '',
            printers: printers.map((p) => ({ name: p.name, status: p.status === 'enabled' ? 'enable' : 'disable' })),
          },
        ];
      }
      case 'getAgentInfo':
        return [{ ...head, status: 'success', msg: '', version: 'console-print-agent-1.21.2' }];
      case 'print':
        return await print(core, head, m.task, sender.origin);
      default:
        return [
          { ...head, status: 'failed', msg: `Unsupported cmd "${String(m.cmd)}": use ${CAINIAO_COMMANDS.join(', ')}` },
        ];
    }
  } catch (e) {
    if (e instanceof PrintError || e instanceof CupsError) return [{ ...head, status: 'failed', msg: e.message }];
    sender.log?.(`cainiao: ${String(m.cmd)} failed: ${(e as Error).stack ?? String(e)}`);
    return [{ ...head, status: 'failed', msg: INTERNAL_ERROR }];
  }
}

interface Content {
  contentType?: unknown;
  data?: unknown;
  url?: unknown;
  templateURL?: unknown;
}

async function pdfOf(c: Content, origin: string | undefined): Promise<Buffer> {
  if (c.contentType !== 'pdf') {
    throw new PrintError(
      c.templateURL
        ? 'Cainiao templates are rendered only by the Cainiao print component: send {contentType: "pdf", data: base64}'
        : 'Unsupported content: send {contentType: "pdf", data: base64} or {contentType: "pdf", url}',
    );
  }
  if (typeof c.data === 'string') return fromBase64(c.data);
  if (typeof c.url === 'string') return fetchPdf(c.url, origin);
  throw new PrintError('A pdf content needs data (base64) or url');
}

async function print(core: PrintCore, head: Out, task: unknown, origin: string | undefined): Promise<Out[]> {
  if (typeof task !== 'object' || task === null) throw new PrintError('Invalid print: no task');
  const t = task as { taskID?: unknown; printer?: unknown; preview?: unknown; documents?: unknown };
  const taskID = t.taskID ?? null;
  if (t.preview === true) throw new PrintError('Preview is not supported: print, or open the PDF');
  if (!Array.isArray(t.documents) || t.documents.length === 0) throw new PrintError('Invalid print: no documents');
  const printer = typeof t.printer === 'string' && t.printer !== '' ? t.printer : await core.defaultPrinter();
  if (!printer) throw new PrintError('No printer given and no default printer');

  // Documents print in order; a failed one does not stop the next (each is one waybill).
  const printStatus: Out[] = [];
  for (const [n, d] of (t.documents as { documentID?: unknown; contents?: unknown }[]).entries()) {
    const documentID = d?.documentID ?? null;
    try {
      if (!Array.isArray(d?.contents) || d.contents.length === 0) throw new PrintError('No contents');
      const pdfs: Buffer[] = [];
      for (const c of d.contents as Content[]) pdfs.push(await pdfOf(c ?? {}, origin));
      // Named by its place in the task (and its contents' place when it has several), not by its
      // place in the one-document job the core sees, which is always 1 (issue 36 #12).
      pdfs.forEach((pdf, k) => {
        const problem = pdfProblem(pdf);
        const content = pdfs.length > 1 ? `, content ${k + 1},` : '';
        if (problem) throw new PrintError(`Document ${n + 1}${content} is not a PDF: ${problem}`);
      });
      await core.print({
        printer,
        documents: pdfs,
        copies: 1,
        size: firstPageSizeMm(pdfs[0]) ?? undefined,
        jobName: `cainiao-${String(taskID)}-${String(documentID)}`,
      });
      printStatus.push({ documentID, status: 'success', msg: '', detail: '' });
    } catch (e) {
      if (!(e instanceof PrintError || e instanceof CupsError)) throw e;
      printStatus.push({ documentID, status: 'failed', msg: e.message, detail: '' });
    }
  }
  const failed = printStatus.filter((s) => s.status === 'failed');
  return [
    {
      ...head,
      taskID,
      status: failed.length === 0 ? 'success' : 'failed',
      msg: failed.length === 0 ? '' : String(failed[0].msg),
    },
    {
      cmd: 'notifyPrintResult',
      printer,
      taskID,
      taskStatus: failed.length === 0 ? 'printed' : 'failed',
      printStatus,
    },
  ];
}
