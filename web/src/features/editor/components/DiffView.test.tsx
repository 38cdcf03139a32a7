import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { DiffView } from './DiffView';

describe('DiffView with emphasis', () => {
  it('shows emphasis as <em>/<strong> without markers, and HTML in the text as text', () => {
    const left = 'The *Argo* left.\n\nSame **bold** paragraph <img src=x onerror=alert(1)>.';
    const right = 'The *silver Argo* left.\n\nSame **bold** paragraph <img src=x onerror=alert(1)>.';
    render(
      <MantineProvider env="test">
        <DiffView left={left} right={right} leftLabel="Mine" rightLabel="Theirs" />
      </MantineProvider>,
    );
    const view = screen.getByTestId('diff-view');
    expect(screen.getByTestId('diff-right').querySelector('ins em')?.textContent).toContain('silver');
    expect([...view.querySelectorAll('em')].map((em) => em.textContent).join('|')).toContain('Argo');
    expect([...view.querySelectorAll('strong')].map((strong) => strong.textContent)).toContain('bold');
    expect(view.textContent).not.toMatch(/\*/u);
    expect(view.querySelector('img')).toBeNull();
    expect(view.textContent).toContain('<img src=x onerror=alert(1)>');
  });
});
