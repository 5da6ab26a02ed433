/** Appearance settings (spec §2): theme, theme colour, size, grey mode, aside collapse. */
import { Button, Divider, Drawer, Segmented, Space, Switch, Typography } from 'antd';
import { useI18n } from '@/lib/i18n.ts';
import {
  DEFAULT_THEME_COLOR,
  resetAppearance,
  setAppearance,
  useAppearance,
  type ComponentSize,
} from '../theme/appearance.ts';
import { themeNames, themes } from '../theme/themes.ts';

const presetColors = [DEFAULT_THEME_COLOR, '#1677FF', '#409EFF', '#13C2C2', '#52C41A', '#722ED1', '#EB2F96', '#F5222D'];

export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useI18n();
  const a = useAppearance();
  return (
    <Drawer open={open} onClose={onClose} title={t('frame.settings.title')} size={360} data-testid="settings-drawer">
      <Typography.Title level={5}>{t('frame.settings.theme')}</Typography.Title>
      <div className="theme-grid">
        {themeNames.map((name) => {
          const f = themes[name].frame;
          return (
            <button
              type="button"
              key={name}
              className={`theme-card${a.theme === name ? ' is-active' : ''}`}
              data-theme-option={name}
              aria-pressed={a.theme === name}
              onClick={() => setAppearance({ theme: name })}
            >
              <span className="theme-card__preview" style={{ background: f.bodyBg }}>
                <span style={{ background: f.headerBg, borderBottom: `1px solid ${f.headerBorder}` }} />
                <span style={{ background: f.asideBg }} />
                <span style={{ background: f.contentBg }} />
              </span>
              <span className="theme-card__name">{t(`frame.settings.themes.${name}`)}</span>
            </button>
          );
        })}
      </div>
      <Divider />
      <Typography.Title level={5}>{t('frame.settings.themeColor')}</Typography.Title>
      <Space wrap>
        {presetColors.map((c) => (
          <button
            type="button"
            key={c}
            className={`color-swatch${a.themeColor.toLowerCase() === c.toLowerCase() ? ' is-active' : ''}`}
            style={{ background: c }}
            aria-label={c}
            onClick={() => setAppearance({ themeColor: c })}
          />
        ))}
        <input
          type="color"
          aria-label={t('frame.settings.themeColor')}
          value={a.themeColor}
          data-testid="theme-color"
          onChange={(e) => setAppearance({ themeColor: e.target.value })}
        />
      </Space>
      <Divider />
      <Typography.Title level={5}>{t('frame.settings.size')}</Typography.Title>
      <Segmented<ComponentSize>
        value={a.size}
        onChange={(size) => setAppearance({ size })}
        options={[
          { value: 'small', label: t('frame.settings.sizeSmall') },
          { value: 'middle', label: t('frame.settings.sizeMiddle') },
          { value: 'large', label: t('frame.settings.sizeLarge') },
        ]}
      />
      <Divider />
      <Space direction="vertical" size="middle">
        <label className="settings-row">
          <Switch checked={a.grey} onChange={(grey) => setAppearance({ grey })} data-testid="grey-mode" />
          {t('frame.settings.grey')}
        </label>
        <label className="settings-row">
          <Switch
            checked={a.asideCollapse}
            onChange={(asideCollapse) => setAppearance({ asideCollapse })}
            data-testid="aside-collapse"
          />
          {t('frame.settings.asideCollapse')}
        </label>
        <Button onClick={resetAppearance}>{t('frame.settings.reset')}</Button>
      </Space>
    </Drawer>
  );
}
