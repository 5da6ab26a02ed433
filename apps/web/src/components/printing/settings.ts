/**
 * Print settings (issue 14, spec §9), saved per user on the server under the `print` setting
 * key: the label's paper, the four margins, the repeat-print interception and picking-list
 * switches, the chosen printer and where the print agent listens. Pure: the saved value is any
 * JSON (an older console, a hand-edited row), so it is read field by field and each field
 * falls back to its default when missing or out of range, never failing the print page.
 */
export interface PrintSettings {
  /** Paper, millimetres (label A is 100 × 150 mm). */
  width: number;
  height: number;
  marginTop: number;
  marginRight: number;
  marginBottom: number;
  marginLeft: number;
  /** Ask before printing an order already printed (its print count above 0). */
  repeatIntercept: boolean;
  /** Print the picking list (product labels) after the waybill labels. */
  pickingList: boolean;
  /** The printer chosen; null: the agent's default printer. */
  printer: string | null;
  /** Where the print agent (or QZ Tray) listens: plain ws:// on this loopback host and port. */
  agentHost: string;
  agentPort: number;
}

export const DEFAULT_PRINT_SETTINGS: Readonly<PrintSettings> = Object.freeze({
  width: 100,
  height: 150,
  marginTop: 0,
  marginRight: 0,
  marginBottom: 0,
  marginLeft: 0,
  repeatIntercept: true,
  pickingList: false,
  printer: null,
  agentHost: 'localhost',
  agentPort: 8182,
});

/** Bounds of each number (mm; a port). The form uses the same ones. */
export const LIMITS = {
  width: { min: 10, max: 1000 },
  height: { min: 10, max: 1000 },
  margin: { min: 0, max: 100 },
  agentPort: { min: 1, max: 65535 },
} as const;

const MARGINS = ['marginTop', 'marginRight', 'marginBottom', 'marginLeft'] as const;
/**
 * The agent runs on the operator's own PC: loopback names only (the server's CSP lets the
 * console open WebSockets to these, any port, and nowhere else).
 */
const HOST = /^(?:localhost|127\.0\.0\.1)$/;

function num(v: unknown, lo: number, hi: number, integer = false): number | undefined {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi) return undefined;
  if (integer && !Number.isInteger(v)) return undefined;
  return v;
}

/** The saved value read into settings: each bad or missing field takes its default. */
export function readPrintSettings(saved: unknown): PrintSettings {
  const s = (saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {}) as Record<string, unknown>;
  const d = DEFAULT_PRINT_SETTINGS;
  const out: PrintSettings = { ...d };
  out.width = num(s.width, LIMITS.width.min, LIMITS.width.max) ?? d.width;
  out.height = num(s.height, LIMITS.height.min, LIMITS.height.max) ?? d.height;
  for (const m of MARGINS) out[m] = num(s[m], LIMITS.margin.min, LIMITS.margin.max) ?? d[m];
  if (typeof s.repeatIntercept === 'boolean') out.repeatIntercept = s.repeatIntercept;
  if (typeof s.pickingList === 'boolean') out.pickingList = s.pickingList;
  if (typeof s.printer === 'string' && s.printer.trim() && s.printer.length <= 100) out.printer = s.printer;
  if (typeof s.agentHost === 'string' && HOST.test(s.agentHost)) out.agentHost = s.agentHost;
  out.agentPort = num(s.agentPort, LIMITS.agentPort.min, LIMITS.agentPort.max, true) ?? d.agentPort;
  return out;
}

/**
 * Which fields of a form's values are wrong (message keys of this feature), empty when they
 * can be saved. The paper must also fit its margins: a label with no printable area is refused.
 */
export function checkPrintSettings(v: PrintSettings): Partial<Record<keyof PrintSettings, string>> {
  const errors: Partial<Record<keyof PrintSettings, string>> = {};
  if (num(v.width, LIMITS.width.min, LIMITS.width.max) === undefined) errors.width = 'sizeRange';
  if (num(v.height, LIMITS.height.min, LIMITS.height.max) === undefined) errors.height = 'sizeRange';
  for (const m of MARGINS) if (num(v[m], LIMITS.margin.min, LIMITS.margin.max) === undefined) errors[m] = 'marginRange';
  if (!errors.width && !errors.marginLeft && !errors.marginRight && v.marginLeft + v.marginRight >= v.width)
    errors.marginRight = 'marginsTooWide';
  if (!errors.height && !errors.marginTop && !errors.marginBottom && v.marginTop + v.marginBottom >= v.height)
    errors.marginBottom = 'marginsTooTall';
  if (!HOST.test(v.agentHost)) errors.agentHost = 'agentHostInvalid';
  if (num(v.agentPort, LIMITS.agentPort.min, LIMITS.agentPort.max, true) === undefined) errors.agentPort = 'portRange';
  return errors;
}

/** The QZ print options of these settings (millimetres; one copy). */
export function qzOptions(s: PrintSettings, jobName: string) {
  return {
    size: { width: s.width, height: s.height },
    units: 'mm' as const,
    margins: { top: s.marginTop, right: s.marginRight, bottom: s.marginBottom, left: s.marginLeft },
    copies: 1,
    jobName,
  };
}

/** An order as far as printing cares. */
export interface PrintableOrder {
  id: number;
  orderNo: string;
  printCount: number;
}

/**
 * The repeat-print rule: with the interception on, printing orders of which any was printed
 * before (print count above 0) asks first, naming those orders and their counts. Off, or no
 * order printed before: print at once.
 */
export function repeatPrintCheck(
  orders: readonly PrintableOrder[],
  settings: Pick<PrintSettings, 'repeatIntercept'>,
): { ask: false } | { ask: true; printed: { orderNo: string; printCount: number }[] } {
  if (!settings.repeatIntercept) return { ask: false };
  const printed = orders.filter((o) => o.printCount > 0).map((o) => ({ orderNo: o.orderNo, printCount: o.printCount }));
  return printed.length ? { ask: true, printed } : { ask: false };
}

/**
 * Why the server would refuse to print this order (the order life's print rule: created or
 * printed, not intercepted, not an error order), as a message key of this feature, or null.
 * Shown as soon as a number is looked up; the server's answer at print time is what counts.
 */
export function printRefusal(o: {
  status: string;
  intercepted: boolean;
  errorReason: string | null;
}): 'refusedCancelled' | 'refusedIntercepted' | 'refusedStatus' | 'refusedError' | null {
  if (o.status === 'cancelled') return 'refusedCancelled';
  if (o.intercepted) return 'refusedIntercepted';
  if (o.status !== 'created' && o.status !== 'printed') return 'refusedStatus';
  if (o.errorReason) return 'refusedError';
  return null;
}
