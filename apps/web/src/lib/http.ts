/**
 * The one HTTP client (spec §4, §7, §8). Typed from the contract: `call(auth.me, {})`
 * returns `CallResponse<typeof auth.me>`. It owns the wire rules so pages never repeat them:
 * bearer + language headers, 30 s timeout (none when the call says 0), AES envelopes,
 * refresh-once on 401 with queued replay, and the error catalogue's reactions.
 */
import {
  AES_HEADER,
  ErrorCode,
  NO_DATA_MESSAGE,
  auth,
  exportJobs,
  type CallDef,
  type CallRequest,
  type CallResponse,
  type FieldErrors,
} from '@console/contract';
import type { ErrorKey } from '@console/contract/errors';
import { decryptJson, encryptJson } from './aes.ts';
import { sessionEvents } from './events.ts';
import { feedback } from './feedback.ts';
import { apiLanguage, t } from './i18n.ts';
import { addLog } from './log.ts';
import './messages.ts';
import { clearSessionCookies, getToken, setToken } from './storage.ts';

export const API_BASE = '/api/';

/** No answer from the server at all: the network is down, or the server or its proxy is gone. */
export class UnreachableError extends Error {
  override readonly name = 'UnreachableError';
}

/**
 * A coded answer other than 200. `data` is the envelope's data (field errors for 422); `key` the
 * failure's stable identity from the contract's catalogue (docs/api.md), null when the answer
 * had none (a proxy's page, a timeout). Match on `key`, never on `message`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly code: number;
  readonly data: unknown;
  readonly path: string;
  readonly key: ErrorKey | null;
  constructor(code: number, message: string, data: unknown, path: string, key: ErrorKey | null = null) {
    super(message);
    this.code = code;
    this.data = data;
    this.path = path;
    this.key = key;
  }
  /** 422 field errors ({ field: [messages] }), or an empty object. */
  get fieldErrors(): FieldErrors {
    return this.code === ErrorCode.VALIDATION && this.data && typeof this.data === 'object'
      ? (this.data as FieldErrors)
      : {};
  }
}

/** What to tell the user about a failed call: the field messages of a 422, else the message. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError) return Object.values(e.fieldErrors).flat().join(' ') || e.message;
  return e instanceof Error ? e.message : String(e);
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Do not show the generic toast for coded errors (the caller shows its own). 401/430/500 still act. */
  silent?: boolean;
  /** Let the request outlive the page (settings flushed on unload). */
  keepalive?: boolean;
  /**
   * A blob shown in the page (an item's or an ID card's image: a stored file, never a render):
   * fetched in one call. Every other blob call is a download, asked for without waiting (`callBlob`).
   */
  inline?: boolean;
}

interface Envelope {
  code: number;
  message: string;
  data: unknown;
  /** Error answers only (contract `errorEnvelope`). */
  key?: ErrorKey;
  iv?: string;
}

let refreshing: Promise<string> | null = null;

/** Exchanges the (possibly expired) token once; concurrent callers share the same promise. */
function refreshToken(): Promise<string> {
  refreshing ??= (async () => {
    try {
      const old = getToken();
      if (!old) throw new ApiError(401, 'no token', null, auth.refresh.path);
      const res = await send(auth.refresh, {}, old, {});
      if (res.status !== 200)
        throw new ApiError(res.envelope.code, res.envelope.message, null, auth.refresh.path, res.envelope.key ?? null);
      const { access_token } = res.envelope.data as CallResponse<typeof auth.refresh>;
      setToken(access_token);
      return access_token;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function send(
  def: CallDef,
  body: unknown,
  token: string | undefined,
  opts: CallOptions,
  extra?: { form?: FormData },
): Promise<{ status: number; envelope: Envelope; response: Response; token: string | undefined }> {
  const headers: Record<string, string> = { 'Accept-Language': apiLanguage() };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (asksAsync(def, opts)) headers.Prefer = exportJobs.RESPOND_ASYNC;
  let payload: BodyInit;
  if (extra?.form && def.aes) {
    // An AES upload: the files travel as they are (TLS protects them), the call's fields
    // sealed as one `{ data, iv }` pair like every AES body.
    if (!token) throw new ApiError(401, 'no token', null, def.path);
    headers[AES_HEADER] = '1';
    const form = new FormData();
    for (const [k, v] of extra.form.entries()) form.append(k, v);
    const sealed = await encryptJson(token, body ?? {});
    form.append('data', sealed.data);
    form.append('iv', sealed.iv);
    payload = form;
  } else if (extra?.form) {
    // A plain upload's typed fields travel as form fields beside the files (the server reads
    // digit strings as numbers), so a call's AES mark alone decides how its fields go.
    const form = new FormData();
    for (const [k, v] of extra.form.entries()) form.append(k, v);
    for (const [k, v] of Object.entries((body ?? {}) as Record<string, unknown>)) {
      if (v !== undefined && v !== null) form.append(k, String(v));
    }
    payload = form;
  } else if (def.aes) {
    if (!token) throw new ApiError(401, 'no token', null, def.path);
    headers[AES_HEADER] = '1';
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(await encryptJson(token, body ?? {}));
  } else {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body ?? {});
  }

  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onAbort);
  let timedOut = false;
  const timer =
    def.timeout > 0
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, def.timeout)
      : undefined;
  let response: Response;
  try {
    response = await fetch(API_BASE + def.path, {
      method: 'POST',
      headers,
      body: payload,
      signal: controller.signal,
      keepalive: opts.keepalive,
    });
  } catch (e) {
    if (timedOut) {
      const err = new Error(t('http.timeout', { ms: def.timeout }));
      err.name = 'TimeoutError';
      throw err;
    }
    // Cancelled by the caller: not a failure. Anything else fetch throws is no answer at all (the
    // browser's words, "TypeError: Failed to fetch", are not the user's language).
    if (e instanceof Error && e.name === 'AbortError') throw e;
    throw new UnreachableError(t('http.unreachable'));
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }

  // A download accepted without waiting: its envelope names it (`callBlob` follows it).
  if (def.kind === 'blob' && response.ok && !(response.status === 202 && asksAsync(def, opts))) {
    return { status: 200, envelope: { code: 200, message: '', data: null }, response, token };
  }
  let envelope: Envelope;
  try {
    envelope = (await response.json()) as Envelope;
  } catch {
    // A proxy error page or empty body: treat it as coded by HTTP status.
    envelope = { code: response.status, message: response.statusText || `HTTP ${response.status}`, data: null };
  }
  if (
    response.ok &&
    def.aes &&
    token &&
    response.headers.get(AES_HEADER) === '1' &&
    typeof envelope.data === 'string' &&
    envelope.iv
  ) {
    envelope = { ...envelope, data: await decryptJson(token, envelope.data, envelope.iv) };
  }
  return { status: response.status, envelope, response, token };
}

/** Sends, refreshing once on 401 and replaying with the new token. */
async function sendWithSession(def: CallDef, body: unknown, opts: CallOptions, extra?: { form?: FormData }) {
  // A call started while a refresh is running waits for the fresh token instead of failing.
  if (refreshing && def.auth) await refreshing.catch(() => undefined);
  const token = def.auth ? getToken() : undefined;
  let res = await send(def, body, token, opts, extra);
  if (res.status === ErrorCode.UNAUTHORIZED && def.auth && token) {
    let fresh: string;
    try {
      // Another call may already have refreshed while this one was in flight.
      const now = getToken();
      fresh = now && now !== token ? now : await refreshToken();
    } catch {
      expireSession();
      throw new ApiError(401, res.envelope.message, null, def.path, res.envelope.key ?? null);
    }
    res = await send(def, body, fresh, opts, extra);
    if (res.status === ErrorCode.UNAUTHORIZED) expireSession();
  } else if (res.status === ErrorCode.UNAUTHORIZED && def.auth) {
    expireSession();
  }
  return res;
}

function expireSession() {
  sessionEvents.emit({ type: 'ending' });
  clearSessionCookies();
  sessionEvents.emit({ type: 'expired' });
}

let sessionEndedShown = false;
/** A no-answer message is on screen: later ones would only stack the same words. */
let noAnswerShown = false;

/** The error catalogue (spec §8). Exported for tests and for callers that catch but want the default. */
export async function reportError(err: unknown, opts: CallOptions = {}, def?: CallDef): Promise<void> {
  if (err instanceof ApiError) {
    const { code, message } = err;
    if (code === ErrorCode.SESSION_ENDED) {
      if (sessionEndedShown) return;
      sessionEndedShown = true;
      const { modal } = await feedback();
      modal.warning({
        title: t('http.sessionEndedTitle'),
        content: message,
        okText: t('common.ok'),
        onOk: () => {
          sessionEvents.emit({ type: 'ending' });
          clearSessionCookies();
          localStorage.setItem('isLogin', 'false');
          location.reload();
        },
      });
      return;
    }
    // An authenticated call's 401 was handled by refresh (or ends in login); a login's 401 is a wrong password.
    if (code === ErrorCode.UNAUTHORIZED && (def?.auth ?? true)) return;
    if (code === ErrorCode.VALIDATION) return;
    if (code === ErrorCode.BAD_REQUEST && message === NO_DATA_MESSAGE) return;
    if (code === ErrorCode.NOTICES_PENDING) {
      sessionEvents.emit({ type: 'notices' });
      return;
    }
    if (code === ErrorCode.INTERNAL) {
      const errorId = (err.data as { errorId?: string } | null)?.errorId ?? '';
      const { notification } = await feedback();
      notification.error({
        title: message,
        description: `${t('http.errorNumber')}: ${errorId} ${t('http.teamWillHandle')}`,
        duration: 0,
      });
      return;
    }
    if (opts.silent) return;
    const { message: toast } = await feedback();
    // Spec §8's 'Upload failed': a refused upload says that it was the upload, then why.
    const content = def?.kind === 'multipart' ? t('feedback.uploadFailed', { reason: message }) : message;
    void toast.error({ content, duration: 5 });
    return;
  }
  if (err instanceof Error && err.name === 'AbortError') return;
  // No answer (network down, server gone, a timeout) or a failure of the console itself: one
  // message in the user's language, however many calls failed together (a page's calls all fail
  // at once when the network goes: they once stacked a modal each, titled "TypeError").
  if (noAnswerShown) return;
  noAnswerShown = true;
  const e = err instanceof Error ? err : new Error(String(err));
  const [title, content] =
    e.name === 'TimeoutError'
      ? [t('http.timeoutTitle'), e.message]
      : e instanceof UnreachableError
        ? [t('http.unreachableTitle'), e.message]
        : [t('http.unexpectedTitle'), t('http.unexpected')];
  if (!(e instanceof UnreachableError) && e.name !== 'TimeoutError') console.error(e);
  const { modal } = await feedback();
  modal.error({
    title,
    content,
    okText: t('common.ok'),
    afterClose: () => {
      noAnswerShown = false;
    },
  });
}

async function run<C extends CallDef>(
  def: C,
  body: unknown,
  opts: CallOptions,
  extra?: { form?: FormData },
  /** A failure the caller handles itself: neither logged nor reported. */
  quiet?: (err: unknown) => boolean,
): Promise<{ envelope: Envelope; response: Response }> {
  try {
    const res = await sendWithSession(def, body, opts, extra);
    const accepted = res.status === 202 && res.envelope.code === 202 && asksAsync(def, opts);
    if (!accepted && (res.status !== 200 || res.envelope.code !== 200)) {
      throw new ApiError(
        res.envelope.code || res.status,
        res.envelope.message,
        res.envelope.data,
        def.path,
        res.envelope.key ?? null,
      );
    }
    return res;
  } catch (err) {
    if (quiet?.(err)) throw err;
    if (!(err instanceof Error && err.name === 'AbortError')) {
      const code = err instanceof ApiError ? err.code : 0;
      if (!(code === ErrorCode.BAD_REQUEST && err instanceof ApiError && err.message === NO_DATA_MESSAGE)) {
        addLog('call', `${def.path}: ${code || (err as Error).name} ${(err as Error).message}`);
      }
      void reportError(err, opts, def);
    }
    throw err;
  }
}

/** Calls `POST /api/<path>` and returns the envelope's `data`, typed by the contract. */
export async function call<C extends CallDef>(def: C, body: CallRequest<C>, opts: CallOptions = {}) {
  const { envelope } = await run(def, body, opts);
  return envelope.data as CallResponse<C>;
}

/**
 * Whether a blob call is asked for without waiting (issue 38 item 6): every download but the
 * page's own images, and never `export/file`, which answers the file itself.
 */
function asksAsync(def: CallDef, opts: CallOptions): boolean {
  return exportJobs.answersAsync(def) && !opts.inline;
}

async function fileOf(response: Response) {
  const cd = response.headers.get('Content-Disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  const filename = star ? decodeURIComponent(star[1]) : plain ? plain[1] : 'download';
  return { blob: await response.blob(), filename };
}

/** How often a download asked for without waiting is looked at; each look answers at once. */
const DOWNLOAD_POLL_MS = 500;
/** While its progress reads "unknown" (aged out in a long queue), `export/file` is asked every this many looks. */
const UNKNOWN_LOOKS = 10;
const notReady = (e: unknown) => e instanceof ApiError && e.key === 'downloadNotReady';

/**
 * Follows download `id` (`export/progress`) until it is built or failed, then fetches its file
 * (`export/file`), from whichever instance answers: no request waits on the render, so a
 * balancer's timeout never cuts a download. A failure answers as the download call would have.
 */
async function fileOfDownload(id: string, opts: CallOptions) {
  for (let look = 0; ; look++) {
    await new Promise((r) => setTimeout(r, look === 0 ? 150 : DOWNLOAD_POLL_MS));
    opts.signal?.throwIfAborted();
    let phase: exportJobs.ExportPhase = 'unknown';
    try {
      phase = (await call(exportJobs.exportProgress, { id }, { silent: true, signal: opts.signal })).phase;
    } catch (e) {
      if (e instanceof Error && e.name === 'AbortError') throw e;
      // A missed look: the next one tries again.
    }
    const ended = phase === 'done' || phase === 'failed';
    if (!ended && !(phase === 'unknown' && look % UNKNOWN_LOOKS === UNKNOWN_LOOKS - 1)) continue;
    try {
      const { response } = await run(exportJobs.exportFile, { id }, opts, undefined, notReady);
      return await fileOf(response);
    } catch (e) {
      if (notReady(e)) continue;
      throw e;
    }
  }
}

/**
 * Blob calls (downloads): the file and its UTF-8 Content-Disposition filename. A download is
 * asked for with `Prefer: respond-async`: the server answers 202 with its id at once and the
 * file is fetched when built (`fileOfDownload`); an inline image is answered in the one call.
 */
export async function callBlob<C extends CallDef>(def: C, body: CallRequest<C>, opts: CallOptions = {}) {
  const { envelope, response } = await run(def, body, opts);
  if (response.status === 202) return fileOfDownload((envelope.data as exportJobs.DownloadAccepted).id, opts);
  return fileOf(response);
}

/**
 * Multipart uploads; the form carries the file(s), `body` the call's typed fields: sealed beside
 * the files for an AES call, form fields for a plain one.
 */
export async function callUpload<C extends CallDef>(
  def: C,
  form: FormData,
  opts: CallOptions = {},
  body?: CallRequest<C>,
) {
  const { envelope } = await run(def, body ?? null, opts, { form });
  return envelope.data as CallResponse<C>;
}

/** Saves a blob with its filename via a temporary link. */
export function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
