import { Table, Text } from '@mantine/core';
import { IconCheck, IconMinus } from '@tabler/icons-react';
import { COMPARISON_ROWS, PLAN_LIST } from '@chronicler/schema';

/** The Compare Features tab: limits and features of every plan, from the one plan table. */
export function CompareFeatures() {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped highlightOnHover withTableBorder aria-label="Compare plan features">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Feature</Table.Th>
            {PLAN_LIST.map((p) => (
              <Table.Th key={p.name} scope="col" ta="center">
                {p.displayName}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {COMPARISON_ROWS.map((row) => (
            <Table.Tr key={row.key}>
              <Table.Th scope="row" fw={500}>
                {row.label}
              </Table.Th>
              {PLAN_LIST.map((p) => {
                const value = row.values[p.name];
                return (
                  <Table.Td key={p.name} ta="center">
                    {typeof value === 'boolean' ? (
                      value ? (
                        <IconCheck size={16} aria-label="Included" color="var(--mantine-color-teal-6)" />
                      ) : (
                        <IconMinus size={16} aria-label="Not included" color="var(--mantine-color-dimmed)" />
                      )
                    ) : (
                      <Text size="sm">{value}</Text>
                    )}
                  </Table.Td>
                );
              })}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
