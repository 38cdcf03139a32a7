import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { renderInTheme } from '@/test/render';
import { BookStatusBadge } from './BookStatusBadge';

describe('BookStatusBadge', () => {
  it.each([
    ['planning', 'Planning'],
    ['revision', 'Revision'],
    ['in_progress', 'In Progress'],
    ['completed', 'Completed'],
  ])('shows %s as "%s", the status the author chose', (status, label) => {
    renderInTheme(<BookStatusBadge status={status} />);
    expect(screen.getByTestId('book-status').textContent).toBe(label);
  });

  it('draws work under way in the theme primary colour, never a fixed blue', () => {
    renderInTheme(<BookStatusBadge status="in_progress" />);
    const style = screen.getByTestId('book-status').getAttribute('style') ?? '';
    expect(style).not.toMatch(/blue/);
    expect(style).toMatch(/primary|ink/);
  });
});
