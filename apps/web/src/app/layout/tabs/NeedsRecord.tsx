/**
 * A page of one record opened without its id (a bookmark, a hand-typed address): says what
 * to do and opens the list the record is chosen from, instead of an empty "no data" page.
 */
import { routeCatalogue, type RouteName } from '@console/contract';
import { Button, Result } from 'antd';
import { useI18n } from '@/lib/i18n.ts';
import { useSession } from '@/lib/session.ts';
import { useOpenRoute } from '../useMenuClick.ts';
import { pageTitle } from './titles.ts';

export function NeedsRecord({ list }: { list: RouteName }) {
  const { t, localized } = useI18n();
  const { routeNames } = useSession();
  const open = useOpenRoute();
  const route = routeCatalogue.find((r) => r.name === list);
  return (
    <Result
      status="info"
      data-testid="needs-record"
      title={t('frame.tabs.needsRecord')}
      extra={
        route &&
        routeNames.has(list) && (
          <Button type="primary" onClick={() => open(list)} data-testid="needs-record-list">
            {t('frame.tabs.openList', { title: pageTitle(route, localized) })}
          </Button>
        )
      }
    />
  );
}
