import { ColorSwatch, Group, Select, Text, type SelectProps } from '@mantine/core';
import { RELATIONSHIP_TYPES } from '@chronicler/schema';
import { RELATIONSHIP_COLORS, RELATIONSHIP_LABELS, type RelationshipType } from '../model/map-geometry';

const OPTIONS = RELATIONSHIP_TYPES.map((value) => ({ value, label: RELATIONSHIP_LABELS[value] }));

const renderOption: SelectProps['renderOption'] = ({ option }) => (
  <Group gap="xs" wrap="nowrap">
    <ColorSwatch color={RELATIONSHIP_COLORS[option.value as RelationshipType]} size={14} aria-hidden />
    <Text size="sm">{option.label}</Text>
  </Group>
);

interface RelationshipTypeSelectProps {
  value: RelationshipType;
  onChange: (value: RelationshipType) => void;
}

/** The relationship type, each with its map colour. */
export function RelationshipTypeSelect({ value, onChange }: RelationshipTypeSelectProps) {
  return (
    <Select
      label="Relationship type"
      data={OPTIONS}
      value={value}
      allowDeselect={false}
      onChange={(v) => v && onChange(v as RelationshipType)}
      renderOption={renderOption}
      leftSection={<ColorSwatch color={RELATIONSHIP_COLORS[value]} size={14} aria-hidden />}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
