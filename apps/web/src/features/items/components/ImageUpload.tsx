import { items } from '@console/contract';
import { Alert, Button, Space, Upload } from 'antd';
import { useEffect, useState } from 'react';
import { errorText, t } from '@/lib';
import { uploadItemImage } from '../api/uploadImage.ts';
import { useItemImage } from '../api/useItemImage.ts';

const ACCEPT = '.jpg,.jpeg,.png,image/jpeg,image/png';
const isImageName = (f: File) => /\.(jpe?g|png)$/i.test(f.name) && (!f.type || /^image\/(jpeg|png)$/.test(f.type));

/**
 * The item image as a form control: value is the image id. A chosen file is checked here for
 * the obvious (type by name, empty, too large) and then by the server on its content; either
 * refusal is shown under the control in words, and the previous image stays.
 */
export function ImageUpload({
  value,
  onChange,
  customerId,
  disabled,
}: {
  value?: number | null;
  onChange?: (v: number | null) => void;
  customerId?: number;
  disabled?: boolean;
}) {
  const [local, setLocal] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const stored = useItemImage(local ? null : value);
  useEffect(() => () => void (local && URL.revokeObjectURL(local)), [local]);
  const preview = local ?? (value ? stored.data : undefined);

  const choose = async (file: File) => {
    setError(null);
    if (!isImageName(file)) return setError(t('items.imageType'));
    if (file.size === 0) return setError(t('items.imageEmpty'));
    if (file.size > items.ITEM_IMAGE_MAX_BYTES)
      return setError(t('items.imageTooLarge', { mb: items.ITEM_IMAGE_MAX_BYTES / 1024 / 1024 }));
    setBusy(true);
    try {
      const r = await uploadItemImage(file, customerId);
      setLocal(URL.createObjectURL(file));
      onChange?.(r.imageId);
    } catch (e) {
      setError(t('items.imageRefused', { reason: errorText(e) }));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Space align="start">
        {preview && (
          <img
            src={preview}
            alt={t('items.image')}
            data-testid="image-preview"
            style={{ width: 96, height: 96, objectFit: 'contain', border: '1px solid #eee' }}
          />
        )}
        <Space direction="vertical">
          <Upload
            accept={ACCEPT}
            maxCount={1}
            showUploadList={false}
            disabled={disabled || busy}
            beforeUpload={(file) => {
              void choose(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <Button loading={busy} disabled={disabled} data-testid="image-upload">
              {t('items.upload')}
            </Button>
          </Upload>
          {value ? (
            <Button
              size="small"
              disabled={disabled}
              onClick={() => {
                setLocal(null);
                onChange?.(null);
              }}
              data-testid="image-remove"
            >
              {t('items.removeImage')}
            </Button>
          ) : null}
          <span style={{ color: 'var(--ant-color-text-description)' }}>{t('items.imageHint')}</span>
        </Space>
      </Space>
      {error && <Alert type="error" showIcon message={error} data-testid="image-error" />}
    </Space>
  );
}
