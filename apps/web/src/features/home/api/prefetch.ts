/** Home's calls, started by the guard together with `me` (app/prefetch.ts) so home paints with its figures. */
import { prefetchMessage } from './message.ts';
import { prefetchOrderStats } from './orderStats.ts';

export function prefetch() {
  prefetchOrderStats();
  prefetchMessage();
}
