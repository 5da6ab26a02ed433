import { type ApiLanguage, ErrorCode, type recipients as C } from '@console/contract';
import type { Database } from '../../db/database.ts';
import { type RecipientInput, validateOrder } from '../../domain/order-input.ts';
import { AppError } from '../../lib/errors.ts';
import { maskIdCard, maskPhone } from '../../lib/mask.ts';
import { translate } from '../../lib/messages.ts';
import { type Actor, customerFor, type Scope } from '../../lib/scope.ts';
import type { StaffWrite } from '../../lib/staff-writes.ts';
import { createRecipientsRepository, type RecipientRecord, type RecipientValues } from './recipients.repository.ts';

const iso = (t: string | Date) => new Date(t).toISOString();

function present(r: RecipientRecord, masked: boolean): C.RecipientRow {
  return {
    id: r.id,
    customerId: r.customer_id,
    customerCode: r.customer_code,
    name: r.name,
    idCard: masked ? maskIdCard(r.id_card) : r.id_card,
    phone: masked ? maskPhone(r.phone) : r.phone,
    email: r.email,
    province: r.province,
    city: r.city,
    district: r.district,
    street: r.street,
    address: r.address,
    postcode: r.postcode,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
  };
}

/**
 * A recipient's 422s: the order's own recipient checks (domain/order-input.ts: phone, the ID
 * number's format, check digit and birth date, the divisions), run on an order that is
 * otherwise valid so only the recipient's issues come back, named by the recipient's fields.
 */
export function recipientErrors(r: RecipientInput, now: Date, lang: ApiLanguage): Record<string, string[]> | null {
  const v = validateOrder(
    {
      customerId: 0,
      channel: 'JP',
      orderNo: 'RECIPIENT',
      boxNo: null,
      userRefNo: null,
      orderType: '',
      exportNominationId: null,
      clearanceCompanyCode: null,
      recipient: r,
      sender: { name: null, address: null, phone: null },
      items: [
        {
          jan: null,
          name: 'x',
          brand: null,
          spec: null,
          quantity: 1,
          unitPrice: 1,
          currency: 'JPY',
          origin: null,
          hazardCode: null,
        },
      ],
      insuredAmount: 0,
      remark: null,
    },
    { now, currencies: new Map([['JPY', 0]]) },
  );
  const fields: Record<string, string[]> = {};
  for (const e of v.errors) {
    if (!e.field.startsWith('recipient.')) continue;
    (fields[e.field.slice('recipient.'.length)] ??= []).push(translate(lang, e.messageKey, e.params));
  }
  return Object.keys(fields).length ? fields : null;
}

/** A stored recipient's own values, as an edit writes them: the images an audit row compares. */
const valuesOf = (r: RecipientRecord): RecipientValues => ({
  name: r.name,
  id_card: r.id_card,
  phone: r.phone,
  email: r.email,
  province: r.province,
  city: r.city,
  district: r.district,
  street: r.street,
  address: r.address,
  postcode: r.postcode,
});

type Input = Omit<C.RecipientRow, 'id' | 'customerId' | 'customerCode' | 'createdAt' | 'updatedAt'>;

/** The recipient address book: a customer's own, an agent's customers', operators all. */
export function createRecipientsService(deps: { db: Database; clock: () => Date }) {
  const { db, clock } = deps;
  const repo = createRecipientsRepository(db);

  function checked(input: Input, lang: ApiLanguage): RecipientValues {
    const r: RecipientInput = {
      name: input.name.trim(),
      idCard: input.idCard.trim().toUpperCase(),
      phone: input.phone.trim(),
      email: input.email,
      province: input.province,
      city: input.city,
      district: input.district,
      street: input.street,
      address: input.address,
      postcode: input.postcode,
    };
    const errors = recipientErrors(r, clock(), lang);
    if (errors) throw AppError.validation(errors);
    return {
      name: r.name,
      id_card: r.idCard,
      phone: r.phone,
      email: r.email,
      province: r.province,
      city: r.city,
      district: r.district,
      street: r.street,
      address: r.address,
      postcode: r.postcode,
    };
  }

  async function load(scope: Scope, id: number) {
    const r = await repo.find(scope, id);
    if (!r) throw new AppError(ErrorCode.NOT_FOUND, 'recipientNotFound');
    return r;
  }

  return {
    async page(scope: Scope, f: C.RecipientListRequest) {
      const { total, rows } = await repo.page(scope, f);
      return { total, list: rows.map((r) => present(r, true)) };
    },
    info: async (scope: Scope, id: number) => present(await load(scope, id), false),
    async create(actor: Actor, scope: Scope, lang: ApiLanguage, input: Input & { customerId?: number }) {
      const customerId = customerFor(actor, scope, input.customerId);
      const { id } = await repo.insert(customerId, checked(input, lang), clock().toISOString());
      return present(await load(scope, id), false);
    },
    /** Staff and agents' edits are recorded with the fields before and after (issue 36 #6), in the edit's transaction. */
    async update(staff: StaffWrite, scope: Scope, lang: ApiLanguage, input: Input & { id: number }) {
      const v = checked(input, lang);
      await db.transaction().execute(async (trx) => {
        const inTrx = createRecipientsRepository(trx);
        const before = await inTrx.find(scope, input.id);
        if (!before || !(await inTrx.update(scope, input.id, v, clock().toISOString())))
          throw new AppError(ErrorCode.NOT_FOUND, 'recipientNotFound');
        await staff.record(trx, {
          target: `recipient:${input.id}`,
          customerId: before.customer_id,
          before: valuesOf(before),
          after: v,
        });
      });
      return present(await load(scope, input.id), false);
    },
    /** The before-image of a recipient staff or an agent removed stays in the audit log. */
    async remove(staff: StaffWrite, scope: Scope, id: number) {
      await db.transaction().execute(async (trx) => {
        const inTrx = createRecipientsRepository(trx);
        const before = await inTrx.find(scope, id);
        if (!before || !(await inTrx.remove(scope, id))) throw new AppError(ErrorCode.NOT_FOUND, 'recipientNotFound');
        await staff.record(trx, {
          target: `recipient:${id}`,
          customerId: before.customer_id,
          before: valuesOf(before),
          after: null,
        });
      });
      return null;
    },
  };
}
export type RecipientsService = ReturnType<typeof createRecipientsService>;
