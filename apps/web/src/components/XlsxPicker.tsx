import { Upload } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

export interface XlsxPickerProps {
  /** The workbook chosen, shown as the one entry of the list. */
  file: File | null;
  /** A workbook was chosen (nothing is uploaded: the page sends it when the user asks). */
  onPick: (file: File) => void;
  /** The chosen workbook was taken out of the list. */
  onRemove: () => void;
  /** A file that is not .xlsx was dropped: the page says so in its own words. */
  onWrongType: () => void;
  disabled?: boolean;
  /** On the wrapper: a test reaches the hidden input with `getByTestId(id).locator('input')`. */
  testId: string;
  style?: CSSProperties;
  /** The prompt inside the drop area. */
  children: ReactNode;
}

/**
 * The one-workbook drop area of the upload pages (issue 40, item 4: written five times alike).
 * The browser's `accept` is only a hint (a dragged file skips it), so the name is checked
 * here too; the file is held by the page, never uploaded by antd itself.
 */
export function XlsxPicker({
  file,
  onPick,
  onRemove,
  onWrongType,
  disabled,
  testId,
  style,
  children,
}: XlsxPickerProps) {
  return (
    <div data-testid={testId} style={style}>
      <Upload.Dragger
        accept=".xlsx"
        maxCount={1}
        disabled={disabled}
        fileList={file ? [{ uid: '1', name: file.name, status: 'done', size: file.size }] : []}
        beforeUpload={(f) => {
          if (!/\.xlsx$/i.test(f.name)) {
            onWrongType();
            return Upload.LIST_IGNORE;
          }
          onPick(f);
          return false;
        }}
        onRemove={onRemove}
      >
        <p>{children}</p>
      </Upload.Dragger>
    </div>
  );
}
