/** The check of issue 28 item 25 itself: what it counts, what it reports, when it may fail a run. */
import { apiCallPath, coverage } from './api-coverage.ts';
import { expect, test } from './test.ts';

const specCalls = ['login', 'me', 'order/orders', 'subscribe/take/pdf', 'clearance/webhook'];
const files = ['shell/auth.spec.ts', 'orders/orders.spec.ts'];
const excuses = { 'clearance/webhook': 'called by the clearance company' };

test('api coverage: requested, missing, excused and listed calls; a partial run says so', () => {
  expect(apiCallPath('http://localhost:8090/api/order/orders?x=1')).toBe('order/orders');
  expect(apiCallPath('http://localhost:8090/home/order/list')).toBeNull();

  const whole = coverage(
    { files, paths: ['login', 'me', 'order/orders', 'user/settings'] },
    files,
    specCalls,
    excuses,
    {},
  );
  expect(whole).toMatchObject({ exercised: ['login', 'me', 'order/orders'], missing: ['subscribe/take/pdf'] });
  expect(whole.notRun).toEqual([]);
  expect(whole.summary).toBe('spec calls requested by the console: 3/5 + 1 not console calls');

  // A listed call is no failure; requested, it is reported for removal; an excuse the console
  // contradicts is reported.
  const listed = coverage(
    { files: files.slice(1), paths: ['login', 'clearance/webhook', 'subscribe/take/pdf'] },
    files,
    specCalls,
    excuses,
    { me: 'waits for a spec', 'subscribe/take/pdf': 'waits for a spec' },
  );
  expect(listed).toMatchObject({
    missing: ['order/orders'],
    pending: ['me'],
    nowExercised: ['subscribe/take/pdf'],
    wronglyExcused: ['clearance/webhook'],
    notRun: ['shell/auth.spec.ts'],
  });
  expect(listed.summary).toBe(
    'spec calls requested by the console: 2/5 + 1 not console calls + 1 not yet exercised (listed) (partial run: 1 of 2 spec files not run)',
  );
});
