import { Select, SimpleGrid, TextInput } from '@mantine/core';
import { type ExportFont, type ExportProfile, type ExportSpacing } from '@chronicler/schema';

const FONT_OPTIONS: { value: ExportFont; label: string }[] = [
  { value: 'serif', label: 'Serif (Times / DejaVu Serif)' },
  { value: 'sans', label: 'Sans serif (Arial / DejaVu Sans)' },
];
const SPACING_OPTIONS: { value: ExportSpacing; label: string }[] = [
  { value: 'double', label: 'Double (manuscript)' },
  { value: 'oneAndHalf', label: '1.5 lines' },
  { value: 'single', label: 'Single' },
];

interface ProfileSettingsProps {
  profile: ExportProfile;
  disabled: boolean;
  onChange: (profile: ExportProfile) => void;
}

/**
 * Font, line spacing and the scene-break marker (saved with the series profile): one field a row
 * in the settings column, so each choice reads in full ("Serif (Times / DejaVu Serif)").
 */
export function ProfileSettings({ profile, disabled, onChange }: ProfileSettingsProps) {
  return (
    <SimpleGrid cols={1} spacing="sm">
      <Select label="Font" data={FONT_OPTIONS} value={profile.font} allowDeselect={false} disabled={disabled} onChange={(v) => v && onChange({ ...profile, font: v as ExportFont })} />
      <Select label="Line spacing" data={SPACING_OPTIONS} value={profile.spacing} allowDeselect={false} disabled={disabled} onChange={(v) => v && onChange({ ...profile, spacing: v as ExportSpacing })} />
      <TextInput
        label="Scene break"
        description="Written between scenes"
        value={profile.sceneBreak}
        maxLength={20}
        disabled={disabled}
        onChange={(e) => onChange({ ...profile, sceneBreak: e.currentTarget.value })}
      />
    </SimpleGrid>
  );
}
