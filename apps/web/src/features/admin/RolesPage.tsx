import { admin, routeCatalogue } from '@console/contract';
import { Alert, Button, Card, Checkbox, Segmented, Space } from 'antd';
import { useEffect, useState } from 'react';
import { getLocale, t, useCall, useI18n } from '@/lib';
import { updateRole } from './api/admin.ts';
import './i18n.ts';

type Role = (typeof admin.editableRoles)[number];

/** System → Roles & Permissions (issue 17, admins only): which routes each role holds. */
export default function RolesPage() {
  useI18n();
  const roles = useCall(admin.roleList, {});
  const [role, setRole] = useState<Role>('customer');
  const [ticked, setTicked] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    setTicked(roles.data?.find((r) => r.role === role)?.routes ?? []);
  }, [roles.data, role]);

  // Routes limited to other roles cannot be granted (the server refuses them too).
  const grantable = routeCatalogue.filter((r) => !('roles' in r) || (r.roles as readonly string[]).includes(role));
  const title = (r: (typeof routeCatalogue)[number]) => (getLocale() === 'en' ? r.title.en : r.title.zh);

  return (
    <Card title={t('admin.roles')} data-testid="admin-roles">
      <Space direction="vertical" style={{ width: '100%' }}>
        <Alert type="info" showIcon message={t('admin.rolesHint')} />
        <Segmented<Role>
          value={role}
          onChange={setRole}
          options={admin.editableRoles.map((r) => ({ value: r, label: t(`admin.roleNames.${r}`) }))}
        />
        <Checkbox.Group value={ticked} onChange={(v) => setTicked(v as string[])} style={{ display: 'block' }}>
          <Space direction="vertical">
            {grantable.map((r) => (
              <Checkbox key={r.name} value={r.name} style={{ marginLeft: 'parent' in r ? 24 : 0 }}>
                {title(r)} <code>{r.name}</code>
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
        <Button
          type="primary"
          loading={saving}
          onClick={() => {
            setSaving(true);
            void updateRole({ role, routes: ticked })
              .catch(() => undefined)
              .finally(() => setSaving(false));
          }}
        >
          {t('admin.save')}
        </Button>
      </Space>
    </Card>
  );
}
