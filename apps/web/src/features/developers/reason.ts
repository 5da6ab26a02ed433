import { ruleMessage } from '@console/contract';
import { localized } from '@/lib';

/**
 * A delivery's failure reason or an endpoint's URL problem in the user's language: the server
 * records a rule's key (`webhookUrlHttps`) where the contract has its words; other reasons
 * (`targetRefused`, `timeout`, a connection's error code) are shown as recorded.
 */
export function reasonText(key: string): string {
  const m = ruleMessage(key);
  return m ? localized({ zh: m['zh-CN'], en: m.en }) : key;
}
