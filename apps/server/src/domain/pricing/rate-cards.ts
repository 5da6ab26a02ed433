import type { bills as C } from '@console/contract';
import type { Transaction } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** Rate cards (issue 17): a channel's prices, overridden by a customer's own card from its day on. */

export interface Card {
  id: number;
  channel_code: string;
  customer_id: number | null;
  effective_from: string;
  currency: string;
  rules: C.RateRules;
}

/** Every card of the channels (and customers) asked, for picking the one in force per order. */
export async function cardsFor(trx: Transaction<DB>, channels: string[]): Promise<Card[]> {
  if (!channels.length) return [];
  const rows = await trx
    .selectFrom('rate_cards')
    .select(['id', 'channel_code', 'customer_id', 'effective_from', 'currency', 'rules'])
    .where('channel_code', 'in', channels)
    .execute();
  return rows.map((r) => ({ ...r, rules: JSON.parse(r.rules) as C.RateRules }));
}

/** The card in force on `day`: the customer's latest card from on or before it, else the channel's. */
export function cardInForce(cards: readonly Card[], channel: string, customerId: number, day: string): Card | null {
  let own: Card | null = null;
  let shared: Card | null = null;
  for (const c of cards) {
    if (c.channel_code !== channel || c.effective_from > day) continue;
    if (c.customer_id === customerId) {
      if (!own || c.effective_from > own.effective_from || (c.effective_from === own.effective_from && c.id > own.id))
        own = c;
    } else if (c.customer_id === null) {
      if (
        !shared ||
        c.effective_from > shared.effective_from ||
        (c.effective_from === shared.effective_from && c.id > shared.id)
      )
        shared = c;
    }
  }
  return own ?? shared;
}
