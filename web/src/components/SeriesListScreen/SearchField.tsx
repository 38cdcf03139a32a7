import { CloseButton, TextInput, type StyleProp } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

interface SearchFieldProps {
  /** Accessible name: 'Search locations'. */
  label: string;
  placeholder: string;
  value: string;
  onChange: (value: string) => void;
  w: StyleProp<number | string>;
}

/** A search box with a 'Clear search' button while it holds text. */
export function SearchField({ label, placeholder, value, onChange, w }: SearchFieldProps) {
  return (
    <TextInput
      aria-label={label}
      placeholder={placeholder}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={value ? <CloseButton size="sm" aria-label="Clear search" onClick={() => onChange('')} /> : null}
      w={w}
      type="search"
    />
  );
}
