/**
 * The database floor of bench:orders (issue 29): the mix's own bodies sent straight to the
 * database through the order list's repository — the same SQL, on SQLite on the same reader
 * threads, on PostgreSQL on a pool of the same size — by 50 callers at once, with no HTTP,
 * session, validation or presentation. The server's throughput is printed as a share of it:
 * what the server adds over its database (a bare route answering bytes said nothing of that).
 */
import { performance } from 'node:perf_hooks';
import { orders } from '@console/contract';
import type { Database } from '../src/db/database.ts';
import type { Scope } from '../src/lib/scope.ts';
import { createOrdersRepository } from '../src/modules/orders/orders.repository.ts';
import type { LoadResult } from './load.ts';
import { mix, type MixConfig } from './orders-mix.ts';

/** The scope each user of the mix lists in (lib/scope.ts), by login name. */
export async function mixScopes(db: Database, names: string[]): Promise<Map<string, Scope>> {
  const users = await db.selectFrom('users').select(['id', 'name', 'role', 'customer_id']).execute();
  const customers = await db.selectFrom('customers').select(['id', 'agent_user_id']).execute();
  const scopes = new Map<string, Scope>();
  for (const name of names) {
    const u = users.find((x) => x.name === name)!;
    scopes.set(
      name,
      u.role === 'customer'
        ? { all: false, customerIds: [u.customer_id!] }
        : u.role === 'agent'
          ? { all: false, customerIds: customers.filter((c) => c.agent_user_id === u.id).map((c) => c.id) }
          : { all: true },
    );
  }
  return scopes;
}

/** 50 callers of the list's repository for `seconds`, each body from the mix. */
export async function measureFloor(
  db: Database,
  seconds: number,
  cfg: MixConfig,
  scopeOfToken: Map<string, Scope>,
): Promise<LoadResult> {
  const repo = createOrdersRepository(db);
  const next = mix(cfg);
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  const caller = async () => {
    while (performance.now() < end) {
      const { token, body } = next();
      const t = performance.now();
      try {
        await repo.listPage(scopeOfToken.get(token)!, orders.orderListRequest.parse(body));
        latencies.push(performance.now() - t);
      } catch {
        errors++;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, caller));
  const elapsed = (performance.now() - t0) / 1000;
  const s = latencies.sort((a, b) => a - b);
  const at = (q: number) => Math.round(s[Math.min(s.length - 1, Math.floor(s.length * q))] ?? 0);
  return {
    requests: s.length,
    rps: s.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
    max: Math.round(s.at(-1) ?? 0),
    non2xx: 0,
    errors,
    bytes: 0,
    writes: null,
  };
}
