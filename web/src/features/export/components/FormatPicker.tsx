import { Badge, Group, Radio, Stack } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { type ExportFormat, EXPORT_FORMATS, EXPORT_FORMAT_LABELS, PLANS, canExport, planForExportFormat } from '@chronicler/schema';
import { useSession } from '@/lib/session';

interface FormatPickerProps {
  value: ExportFormat;
  /** The formats offered (every format when absent). */
  formats?: readonly ExportFormat[] | undefined;
  disabled: boolean;
  onChange: (format: ExportFormat) => void;
}

/** The formats, each marked with the plan that opens it when the author's plan does not. */
export function FormatPicker({ value, formats = EXPORT_FORMATS, disabled, onChange }: FormatPickerProps) {
  const plan = useSession((s) => s.user?.plan ?? 'apprentice');
  return (
    <Radio.Group label="Format" value={value} onChange={(v) => onChange(v as ExportFormat)}>
      <Stack gap="xs" mt="xs">
        {formats.map((format) => (
          <Group key={format} gap="xs">
            <Radio value={format} label={EXPORT_FORMAT_LABELS[format]} disabled={disabled} />
            {canExport(plan, format) ? null : (
              <Badge size="sm" variant="light" color="gray" leftSection={<IconLock size={12} aria-hidden />}>
                {PLANS[planForExportFormat(format)].displayName}
              </Badge>
            )}
          </Group>
        ))}
      </Stack>
    </Radio.Group>
  );
}
