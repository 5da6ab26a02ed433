/**
 * The "columns" button of a list: a popover of checkboxes choosing which columns show. At least
 * one column stays (an empty choice would read as "never chosen" and bring every column back);
 * the caller saves the choice (per user, on the server).
 */
import { Button, Checkbox, Popover } from 'antd';

export function ColumnChooser({
  all,
  chosen,
  titleOf,
  label,
  disabled,
  onChoose,
}: {
  all: readonly string[];
  chosen: readonly string[];
  titleOf: (key: string) => string;
  label: string;
  disabled?: boolean;
  onChoose: (next: string[]) => void;
}) {
  return (
    <Popover
      trigger="click"
      content={
        <Checkbox.Group
          value={[...chosen]}
          onChange={(v) => v.length && onChoose(v as string[])}
          style={{ display: 'grid' }}
          data-testid="list-column-choice"
        >
          {all.map((k) => (
            <Checkbox key={k} value={k}>
              {titleOf(k)}
            </Checkbox>
          ))}
        </Checkbox.Group>
      }
    >
      <Button data-testid="list-columns" disabled={disabled}>
        {label}
      </Button>
    </Popover>
  );
}
