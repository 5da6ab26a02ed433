// The contract's parts one by one, not its index: this module is loaded by every batch parse
// worker, and the index builds every call's schemas (0.25 s of each worker's start, issue 29).
import type { ApiLanguage } from '@console/contract';
import { type Catalogue, errorMessages } from '@console/contract/errors';
import { ruleMessage } from '@console/contract/messages';

/**
 * The server's words for a message key come from the contract's one catalogue
 * (`@console/contract/errors`, a part per module), so a client, a test or the console names a
 * failure by the same key the server raises.
 */
const catalogue: Catalogue = errorMessages;

/** Every key with its texts (the parity test reads them). */
export function allMessages(): Catalogue {
  return catalogue;
}

/** Whether `key` is in a catalogue (the error envelope's `key` must be; the harness checks every error answer). */
export function isMessageKey(key: string): boolean {
  return Object.hasOwn(catalogue, key) || ruleMessage(key) !== undefined;
}

export function translate(lang: ApiLanguage, key: string, params?: Record<string, string | number>): string {
  // A key of the contract's rules (a field the service checks again, such as a pickup date) reads as the contract words it.
  const entry = (Object.hasOwn(catalogue, key) ? catalogue[key] : undefined) ?? ruleMessage(key);
  let text = entry ? entry[lang] : key;
  if (params) for (const [k, v] of Object.entries(params)) text = text.replaceAll(`{${k}}`, String(v));
  return text;
}

/** `Accept-Language`: zh-CN (and any zh) answers Chinese, everything else English. */
export function languageOf(header: string | undefined): ApiLanguage {
  const first = (header ?? '').split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}
