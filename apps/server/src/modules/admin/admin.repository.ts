import type { admin as C } from '@console/contract';
import { sql } from 'kysely';
import type { Database } from '../../db/database.ts';
import { ilike, likeContaining, likeSql, likeStartingWith } from '../../db/dialect.ts';
import { pageTotal } from '../../db/page-total.ts';
import { createUsersRepository } from '../users/index.ts';

type CustomerFilters = Omit<C.CustomerListRequest, 'offset' | 'limit'>;
type UserFilters = Omit<C.UserListRequest, 'offset' | 'limit'>;
type AuditFilters = Omit<C.AuditListRequest, 'offset' | 'limit'>;

/** Start of a China day (UTC+8) in UTC, and the start of the next one. */
const chinaDayStart = (day: string, plusDays = 0) =>
  new Date(Date.parse(`${day}T00:00:00+08:00`) + plusDays * 86_400_000).toISOString();

/** SQL of administration: customers, accounts, role routes, the audit log. */
export function createAdminRepository(db: Database) {
  const accounts = createUsersRepository(db);
  const like = ilike(db);

  const customers = () =>
    db
      .selectFrom('customers as c')
      .leftJoin('users as a', 'a.id', 'c.agent_user_id')
      .select((eb) => [
        'c.id',
        'c.version',
        'c.code',
        'c.name',
        'c.contact_name',
        'c.contact_phone',
        'c.contact_email',
        'c.agent_user_id',
        'a.name as agent_name',
        'c.created_at',
        eb
          .selectFrom('users as u')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('u.customer_id', '=', 'c.id')
          .as('users'),
      ]);
  const customerFilter = <Q extends ReturnType<typeof customers>>(q: Q, f: CustomerFilters): Q => {
    let out = q as ReturnType<typeof customers>;
    if (f.keyword) {
      const p = likeContaining(f.keyword);
      out = out.where((eb) => eb.or([likeSql('c.code', like, p), likeSql('c.name', like, p)]));
    }
    if (f.agentUserId) out = out.where('c.agent_user_id', '=', f.agentUserId);
    return out as Q;
  };

  const users = () =>
    db
      .selectFrom('users as u')
      .leftJoin('customers as c', 'c.id', 'u.customer_id')
      .select((eb) => [
        'u.id',
        'u.name',
        'u.display_name',
        'u.role',
        'u.customer_id',
        'c.code as customer_code',
        'u.disabled',
        'u.must_change_password',
        'u.created_at',
        eb
          .selectFrom('sessions as s')
          .select(eb.fn.countAll<number>().as('n'))
          .whereRef('s.user_id', '=', 'u.id')
          .where('s.ended_at', 'is', null)
          .as('sessions'),
      ]);

  return {
    async customerPage(f: C.CustomerListRequest) {
      const total = await customerFilter(
        db.selectFrom('customers as c').select((eb) => eb.fn.countAll<number>().as('n')) as never,
        f,
      );
      const [{ n }] = (await (total as any).execute()) as { n: number }[];
      const col = { createdAt: 'c.created_at', code: 'c.code', name: 'c.name' }[f.sort];
      const list = await customerFilter(customers(), f)
        .orderBy(sql.ref(col), f.order)
        .orderBy('c.id', f.order)
        .limit(f.limit)
        .offset(f.offset)
        .execute();
      return { total: Number(n), list };
    },
    customerById(id: number) {
      return customers().where('c.id', '=', id).executeTakeFirst();
    },
    customerByCode(code: string) {
      return db.selectFrom('customers').select('id').where('code', '=', code).executeTakeFirst();
    },
    async insertCustomer(v: {
      code: string;
      name: string;
      contact_name: string;
      contact_phone: string;
      contact_email: string;
      agent_user_id: number | null;
      created_at: string;
    }) {
      const r = await db.insertInto('customers').values(v).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    async channelsOf(customerIds: number[]) {
      const out = new Map<number, string[]>();
      if (!customerIds.length) return out;
      const rows = await db
        .selectFrom('customer_channels as cc')
        .innerJoin('channels as ch', 'ch.code', 'cc.channel_code')
        .select(['cc.customer_id', 'cc.channel_code'])
        .where('cc.customer_id', 'in', customerIds)
        .orderBy('ch.sort')
        .execute();
      for (const r of rows)
        (out.get(r.customer_id) ?? out.set(r.customer_id, []).get(r.customer_id)!).push(r.channel_code);
      return out;
    },
    async knownChannels() {
      return (await db.selectFrom('channels').select('code').execute()).map((r) => r.code);
    },
    async setChannels(customerId: number, codes: string[]) {
      await db.deleteFrom('customer_channels').where('customer_id', '=', customerId).execute();
      if (codes.length)
        await db
          .insertInto('customer_channels')
          .values(codes.map((channel_code) => ({ customer_id: customerId, channel_code })))
          .execute();
    },

    segmentsOf(customerId: number) {
      return db
        .selectFrom('number_segments')
        .selectAll()
        .where('customer_id', '=', customerId)
        .orderBy('channel_code')
        .orderBy('id')
        .execute();
    },
    segmentById(id: number) {
      return db.selectFrom('number_segments').selectAll().where('id', '=', id).executeTakeFirst();
    },
    /** A segment of the same number shape whose range meets [first, last]: shared or anyone's. */
    overlapping(v: { scheme: string; prefix: string; suffix: string; first: number; last: number }) {
      return db
        .selectFrom('number_segments')
        .select(['id', 'name', 'first_seq', 'last_seq'])
        .where('scheme', '=', v.scheme)
        .where('prefix', '=', v.prefix)
        .where('suffix', '=', v.suffix)
        .where('first_seq', '<=', v.last)
        .where('last_seq', '>=', v.first)
        .orderBy('first_seq')
        .executeTakeFirst();
    },
    async insertSegment(v: {
      channel_code: string;
      customer_id: number;
      name: string;
      prefix: string;
      suffix: string;
      scheme: string;
      first_seq: number;
      next_seq: number;
      last_seq: number;
    }) {
      const r = await db.insertInto('number_segments').values(v).returning('id').executeTakeFirstOrThrow();
      return r.id;
    },
    /** Nothing more is handed out; the range up to the last number given stays claimed. */
    retireSegment(id: number) {
      return db
        .updateTable('number_segments')
        .set({ last_seq: sql<number>`next_seq - 1` })
        .where('id', '=', id)
        .execute();
    },

    async updateCustomer(
      id: number,
      v: {
        name: string;
        contact_name: string;
        contact_phone: string;
        contact_email: string;
        agent_user_id: number | null;
      },
      /** Only while the customer is at the version an edit form was loaded from. */
      version?: number,
    ) {
      let q = db.updateTable('customers').set(v).where('id', '=', id);
      if (version !== undefined) q = q.where('version', '=', version);
      return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
    },

    async userPage(f: C.UserListRequest) {
      const filter = <Q>(q: Q): Q => {
        let out = q as any;
        if (f.keyword) {
          const p = likeContaining(f.keyword);
          out = out.where((eb: any) => eb.or([likeSql('u.name', like, p), likeSql('u.display_name', like, p)]));
        }
        if (f.role) out = out.where('u.role', '=', f.role);
        if (f.customerId) out = out.where('u.customer_id', '=', f.customerId);
        return out as Q;
      };
      const { n } = await filter(
        db.selectFrom('users as u').select((eb) => eb.fn.countAll<number>().as('n')),
      ).executeTakeFirstOrThrow();
      const col = f.sort === 'name' ? 'u.name' : 'u.created_at';
      const list = await filter(users())
        .orderBy(sql.ref(col), f.order)
        .orderBy('u.id', f.order)
        .limit(f.limit)
        .offset(f.offset)
        .execute();
      return { total: Number(n), list };
    },
    userById(id: number) {
      return users().where('u.id', '=', id).executeTakeFirst();
    },
    // Accounts are written by the users module alone (issue 30 #3: one writer of `users`).
    userByName: accounts.idAndRoleByName,
    insertUser: accounts.insert,
    setOneTimePassword: accounts.setOneTimePassword,
    setDisabled: accounts.setDisabled,
    async endSessions(userId: number, reason: string, now: string) {
      const r = await db
        .updateTable('sessions')
        .set({ ended_at: now, end_reason: reason })
        .where('user_id', '=', userId)
        .where('ended_at', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows);
    },

    routesOfRoles() {
      return db.selectFrom('role_permissions').select(['role', 'route_name']).orderBy('route_name').execute();
    },
    async setRoutes(role: string, routes: string[]) {
      await db.deleteFrom('role_permissions').where('role', '=', role).execute();
      if (routes.length)
        await db
          .insertInto('role_permissions')
          .values(routes.map((route_name) => ({ role, route_name })))
          .execute();
    },

    async auditPage(f: C.AuditListRequest) {
      const filter = <Q>(q: Q): Q => {
        let out = q as any;
        if (f.userName) out = out.where('user_name', '=', f.userName);
        if (f.action) out = out.where(likeSql('action', like, likeStartingWith(f.action)));
        if (f.target) out = out.where(likeSql('target', like, likeContaining(f.target)));
        if (f.dateFrom) out = out.where('at', '>=', chinaDayStart(f.dateFrom));
        if (f.dateTo) out = out.where('at', '<', chinaDayStart(f.dateTo, 1));
        return out as Q;
      };
      const list = await filter(db.selectFrom('audit_log').selectAll())
        .orderBy('at', f.order)
        .orderBy('id', f.order)
        .limit(f.limit)
        .offset(f.offset)
        .execute();
      const total = await pageTotal(f.offset, f.limit, list.length, async () => {
        const { n } = await filter(
          db.selectFrom('audit_log').select((eb) => eb.fn.countAll<number>().as('n')),
        ).executeTakeFirstOrThrow();
        return Number(n);
      });
      return { total, list };
    },
  };
}
export type AdminRepository = ReturnType<typeof createAdminRepository>;
export type _Filters = AuditFilters | UserFilters;
