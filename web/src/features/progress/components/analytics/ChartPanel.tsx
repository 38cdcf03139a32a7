import { useId, useState, type ReactNode } from 'react';
import { Box, Button, Group, Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconChartBar, IconTable } from '@tabler/icons-react';

export interface ChartTableData {
  /** The table's caption: what the chart shows. */
  caption: string;
  columns: readonly [string, string];
  rows: readonly (readonly [string, string])[];
}

function FiguresTable({ table }: { table: ChartTableData }) {
  return (
    <Table striped withTableBorder>
      <Table.Caption>{table.caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{table.columns[0]}</Table.Th>
          <Table.Th scope="col" ta="right">
            {table.columns[1]}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {table.rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" fw={400}>
              {label}
            </Table.Th>
            <Table.Td ta="right">{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * The table shown instead of the chart: in a box that scrolls (30 days is a long table), focusable
 * so a keyboard can scroll it. A plain box, not Table.ScrollContainer: its ScrollArea is in the
 * dashboard's chunks, and this page importing it too split one of them in two (pnpm size).
 */
function ScrollingTable({ table }: { table: ChartTableData }) {
  return (
    <Box style={{ overflow: 'auto', maxHeight: 360 }} tabIndex={0} role="region" aria-label={table.caption}>
      <FiguresTable table={table} />
    </Box>
  );
}

export interface ChartPanelProps {
  title: string;
  /** A sentence of what the chart says (read before it; the chart itself is hidden from screen readers). */
  summary?: ReactNode;
  /** Controls beside the title (the period switch). */
  controls?: ReactNode;
  /** The chart, drawn for the eye; `table` carries the same figures for screen readers and on request. */
  chart: ReactNode;
  table: ChartTableData;
  testId: string;
}

/**
 * A chart with its figures as a table: screen readers always get the table (the chart is hidden from
 * them), and anyone may switch the panel to show the table instead of the chart.
 */
export function ChartPanel({ title, summary, controls, chart, table, testId }: ChartPanelProps) {
  const [showTable, setShowTable] = useState(false);
  const headingId = useId();
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={headingId} data-testid={testId}>
      <Group justify="space-between" align="center" gap="xs" mb="xs" wrap="wrap">
        <Title order={2} fz="lg" id={headingId}>
          {title}
        </Title>
        <Group gap="xs" wrap="wrap">
          {controls}
          <Button
            variant="subtle"
            size="compact-sm"
            aria-pressed={showTable}
            leftSection={showTable ? <IconChartBar size={16} aria-hidden /> : <IconTable size={16} aria-hidden />}
            onClick={() => setShowTable((v) => !v)}
          >
            {showTable ? 'Show chart' : 'Show table'}
          </Button>
        </Group>
      </Group>
      {summary ? (
        <Text size="sm" c="dimmed" mb="sm">
          {summary}
        </Text>
      ) : null}
      {showTable ? (
        <ScrollingTable table={table} />
      ) : (
        <>
          <div aria-hidden="true">{chart}</div>
          <VisuallyHidden>
            <FiguresTable table={table} />
          </VisuallyHidden>
        </>
      )}
    </Paper>
  );
}
