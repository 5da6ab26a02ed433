import { ADMIN_ROLE, type admin as C, passwordProblems, type Role, routeCatalogue } from '@console/contract';
import { isCommonPassword } from '@console/contract/common-passwords';
import { randomInt } from 'node:crypto';
import type { Database } from '../../db/database.ts';
import { hashPassword } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import type { Files } from '../../lib/files.ts';
import { StaleVersion, versionedSave } from '../../lib/versions.ts';
import type { Actor } from '../../lib/scope.ts';
import { createAdminRepository } from './admin.repository.ts';
import { adminLog, type Caller } from './admin.log.ts';
import { createSegmentAdmin } from './admin.segments.ts';

export type { Caller };

export interface AdminDeps {
  db: Database;
  clock: () => Date;
  /** The files module: each customer's stored bytes and the quota on them (issue 36, item 5). */
  files: Pick<Files, 'storedBytes' | 'quotaBytes'>;
}

/** Who outranks whom: no one creates or acts on an account of a higher role (as in auth). */
const roleRank: Record<Role, number> = { customer: 0, agent: 1, operator: 2, [ADMIN_ROLE]: 3 };

// No look-alikes (0/O, 1/l/I): the operator reads the password out or types it into a message.
const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const DIGITS = '23456789';
const SYMBOLS = '#%+-=@';
const pick = (s: string) => s[randomInt(s.length)]!;

/** A one-time password that meets the policy (all four kinds, 14 characters, not the name). */
export function oneTimePassword(userName: string): string {
  for (;;) {
    const chars = [pick(LOWER), pick(UPPER), pick(DIGITS), pick(SYMBOLS)];
    const all = LOWER + UPPER + DIGITS + SYMBOLS;
    while (chars.length < 14) chars.push(pick(all));
    for (let i = chars.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [chars[i], chars[j]] = [chars[j]!, chars[i]!];
    }
    const password = chars.join('');
    if (passwordProblems(password, { userName, isCommon: isCommonPassword }).length === 0) return password;
  }
}

type CustomerRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createAdminRepository>['customerById']>>>;
type UserRecord = NonNullable<Awaited<ReturnType<ReturnType<typeof createAdminRepository>['userById']>>>;

const presentCustomer = (
  r: CustomerRecord,
  channels: string[],
  stored: { bytes: number; quota: number },
): C.CustomerRow => ({
  id: r.id,
  version: r.version,
  code: r.code,
  name: r.name,
  contactName: r.contact_name,
  contactPhone: r.contact_phone,
  contactEmail: r.contact_email,
  agentUserId: r.agent_user_id,
  agentName: r.agent_name,
  users: Number(r.users ?? 0),
  channels,
  storedBytes: stored.bytes,
  storedBytesQuota: stored.quota,
  createdAt: r.created_at,
});
const presentUser = (r: UserRecord): C.UserRow => ({
  id: r.id,
  name: r.name,
  displayName: r.display_name,
  role: r.role as Role,
  customerId: r.customer_id,
  customerCode: r.customer_code,
  disabled: r.disabled === 1,
  mustChangePassword: r.must_change_password === 1,
  sessions: Number(r.sessions ?? 0),
  createdAt: r.created_at,
});

/**
 * Administration (issue 17): customers, accounts, role routes and the audit log. Permissions
 * (system.*) are checked by the registrar; the rules here are what a permission cannot say:
 * ranks, an agent being an agent, a customer user having a customer. Every change writes its
 * audit row in the change's own transaction.
 */
export function createAdminService({ db, clock, files }: AdminDeps) {
  const repo = createAdminRepository(db);
  const now = () => clock().toISOString();
  const log = adminLog(clock);

  async function assertAgent(r: ReturnType<typeof createAdminRepository>, agentUserId: number | null) {
    if (agentUserId === null) return;
    const u = await r.userById(agentUserId);
    if (!u || u.role !== 'agent') throw AppError.field('agentUserId', 'agentNotAgent');
  }

  /** Each customer's stored bytes, read where its row is (the caller's transaction). */
  const storedOf = async (ids: number[], on: Database) => {
    const bytes = await files.storedBytes(ids, on);
    return (id: number) => ({ bytes: bytes.get(id) ?? 0, quota: files.quotaBytes });
  };

  async function customerRow(id: number, r = repo, on: Database = db) {
    const row = await r.customerById(id);
    if (!row) throw AppError.field('id', 'customerNotFound');
    return presentCustomer(row, (await r.channelsOf([id])).get(id) ?? [], (await storedOf([id], on))(id));
  }

  /** Known codes, each once, in the order given; 422 on `channels` otherwise. */
  async function checkedChannels(r: ReturnType<typeof createAdminRepository>, codes: string[]) {
    const known = new Set(await r.knownChannels());
    const seen = new Set<string>();
    for (const code of codes) {
      if (!known.has(code)) throw AppError.field('channels', 'customerChannelUnknown', { value: code });
      if (seen.has(code)) throw AppError.field('channels', 'customerChannelTwice', { value: code });
      seen.add(code);
    }
    return codes;
  }
  async function userRow(id: number, r = repo) {
    const row = await r.userById(id);
    if (!row) throw AppError.field('id', 'userNotFound');
    return presentUser(row);
  }

  /** The account acted on: not one's own, not of a higher role. */
  async function managed(actor: Actor, id: number) {
    const u = await userRow(id);
    if (u.id === actor.userId) throw AppError.forbidden('cannotActOnSelf');
    if (roleRank[u.role] > roleRank[actor.role]) throw AppError.forbidden('cannotActOnHigherRole');
    return u;
  }

  return {
    ...createSegmentAdmin({ db, repo, log, customerRow }),

    // ---- customers -----------------------------------------------------
    async customerPage(input: C.CustomerListRequest) {
      const { total, list } = await repo.customerPage(input);
      const ids = list.map((r) => r.id);
      const [channels, stored] = await Promise.all([repo.channelsOf(ids), storedOf(ids, db)]);
      return { total, list: list.map((r) => presentCustomer(r, channels.get(r.id) ?? [], stored(r.id))) };
    },

    async createCustomer(c: Caller, input: C.CreateCustomerRequest) {
      return db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        if (await r.customerByCode(input.code)) throw AppError.field('code', 'customerCodeTaken');
        await assertAgent(r, input.agentUserId);
        const channels = await checkedChannels(r, input.channels);
        const id = await r.insertCustomer({
          code: input.code,
          name: input.name,
          contact_name: input.contactName,
          contact_phone: input.contactPhone,
          contact_email: input.contactEmail,
          agent_user_id: input.agentUserId,
          created_at: now(),
        });
        await r.setChannels(id, channels);
        await log(trx, c, 'customer.create', `customer:${input.code}`, {
          name: input.name,
          agentUserId: input.agentUserId,
          channels,
        });
        return customerRow(id, r, trx);
      });
    },

    async updateCustomer(c: Caller, input: C.UpdateCustomerRequest) {
      return versionedSave(
        () => this.writeCustomer(c, input),
        () => customerRow(input.id),
      );
    },
    async writeCustomer(c: Caller, input: C.UpdateCustomerRequest) {
      return db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        const before = await customerRow(input.id, r, trx);
        if (input.version !== undefined && input.version !== before.version) throw new StaleVersion();
        await assertAgent(r, input.agentUserId);
        const channels = await checkedChannels(r, input.channels);
        const saved = await r.updateCustomer(
          input.id,
          {
            name: input.name,
            contact_name: input.contactName,
            contact_phone: input.contactPhone,
            contact_email: input.contactEmail,
            agent_user_id: input.agentUserId,
          },
          input.version,
        );
        // Read before the write, changed since by a save from the same version (PostgreSQL runs them at once).
        if (!saved) throw new StaleVersion();
        await r.setChannels(input.id, channels);
        const after = await customerRow(input.id, r, trx);
        const changed: Record<string, unknown> = Object.fromEntries(
          (['name', 'contactName', 'contactPhone', 'contactEmail', 'agentUserId'] as const)
            .filter((k) => before[k] !== after[k])
            .map((k) => [k, [before[k], after[k]]]),
        );
        // Compared as sets: the same channels in another order are no change.
        if ([...before.channels].sort().join() !== [...after.channels].sort().join())
          changed.channels = [before.channels, after.channels];
        await log(trx, c, 'customer.update', `customer:${before.code}`, changed);
        return after;
      });
    },

    // ---- users ---------------------------------------------------------
    async userPage(input: C.UserListRequest) {
      const { total, list } = await repo.userPage(input);
      return { total, list: list.map(presentUser) };
    },

    async createUser(c: Caller, input: C.CreateUserRequest) {
      if (roleRank[input.role] > roleRank[c.actor.role]) throw AppError.field('role', 'cannotCreateHigherRole');
      if (input.role === 'customer' && input.customerId === null)
        throw AppError.field('customerId', 'customerUserNeedsCustomer');
      if (input.role !== 'customer' && input.customerId !== null)
        throw AppError.field('customerId', 'onlyCustomerUsersHaveCustomer');
      const password = oneTimePassword(input.name);
      const hash = await hashPassword(password);
      const user = await db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        if (await r.userByName(input.name)) throw AppError.field('name', 'userNameTaken');
        if (input.customerId !== null && !(await r.customerById(input.customerId)))
          throw AppError.field('customerId', 'customerNotFound');
        const id = await r.insertUser({
          name: input.name,
          display_name: input.displayName,
          role: input.role,
          customer_id: input.customerId,
          password_hash: hash,
          created_at: now(),
        });
        // Never the password itself: the log is read by every operator.
        await log(trx, c, 'user.create', `user:${input.name}`, { role: input.role, customerId: input.customerId });
        return userRow(id, r);
      });
      return { user, password };
    },

    /**
     * The answer carries the new password, so a reset is a way into the account: a staff
     * member's (operator's or admin's) is reset only by an admin, never by a peer operator
     * (finding 12 of issue 26). Operators still reset customers' and agents' users.
     */
    async resetPassword(c: Caller, id: number) {
      const target = await managed(c.actor, id);
      if (roleRank[target.role] >= roleRank.operator && c.actor.role !== ADMIN_ROLE)
        throw AppError.forbidden('staffPasswordAdminOnly');
      const password = oneTimePassword(target.name);
      const hash = await hashPassword(password);
      const user = await db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        await r.setOneTimePassword(id, hash, now());
        await r.endSessions(id, 'password_changed', now());
        await log(trx, c, 'user.resetPassword', `user:${target.name}`);
        return userRow(id, r);
      });
      return { user, password };
    },

    async setDisabled(c: Caller, id: number, disabled: boolean) {
      const target = await managed(c.actor, id);
      return db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        await r.setDisabled(id, disabled);
        if (disabled) await r.endSessions(id, 'disabled', now());
        await log(trx, c, disabled ? 'user.disable' : 'user.enable', `user:${target.name}`);
        return userRow(id, r);
      });
    },

    async endSessions(c: Caller, id: number) {
      const target = await managed(c.actor, id);
      return db.transaction().execute(async (trx) => {
        const ended = await createAdminRepository(trx).endSessions(id, 'operator', now());
        await log(trx, c, 'user.endSessions', `user:${target.name}`, { ended });
        return { ended };
      });
    },

    // ---- roles ---------------------------------------------------------
    async roles() {
      const rows = await repo.routesOfRoles();
      const known = new Set<string>(routeCatalogue.map((r) => r.name));
      return (['customer', 'agent', 'operator'] as const).map((role) => ({
        role,
        routes: rows.filter((r) => r.role === role && known.has(r.route_name)).map((r) => r.route_name),
      }));
    },

    /**
     * A route limited to some roles (`roles` in the catalogue) cannot be granted to another:
     * the System menu and operator pages stay out of customers' and agents' reach whatever is
     * ticked. Granting a child without its parent is allowed (the menu shows a parent when a
     * child is held).
     */
    async updateRole(c: Caller, role: C.EditableRole, routes: string[]) {
      const wanted = [...new Set(routes)];
      for (const name of wanted) {
        const entry = routeCatalogue.find((r) => r.name === name) as { roles?: readonly string[] } | undefined;
        if (!entry) throw AppError.field('routes', 'routeUnknown', { route: name });
        if (entry.roles && !entry.roles.includes(role))
          throw AppError.field('routes', 'routeNotForRole', { route: name });
      }
      await db.transaction().execute(async (trx) => {
        const r = createAdminRepository(trx);
        const before = new Set((await r.routesOfRoles()).filter((x) => x.role === role).map((x) => x.route_name));
        await r.setRoutes(role, wanted);
        const added = wanted.filter((x) => !before.has(x));
        const removed = [...before].filter((x) => !wanted.includes(x));
        await log(trx, c, 'role.update', `role:${role}`, { added, removed });
      });
      return null;
    },

    // ---- audit ---------------------------------------------------------
    async auditPage(input: C.AuditListRequest) {
      const { total, list } = await repo.auditPage(input);
      return {
        total,
        list: list.map((r) => ({
          id: r.id,
          at: r.at,
          userId: r.user_id,
          userName: r.user_name,
          action: r.action,
          target: r.target,
          detail: r.detail,
          ip: r.ip,
        })),
      };
    },
  };
}
export type AdminService = ReturnType<typeof createAdminService>;
