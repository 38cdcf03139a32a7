import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MemoryRouter } from 'react-router';
import { renderInTheme } from '@/test/render';
import NotFoundRoute from './NotFoundRoute';

describe('the not-found page', () => {
  it('keeps the spec’s hint and shows authors none of the source’s file names', async () => {
    renderInTheme(
      <MemoryRouter initialEntries={['/no/such/page']}>
        <NotFoundRoute />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: '404 Page Not Found' })).toBeTruthy();
    expect(screen.getByText(/Did you forget to add the page to the router\?/)).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/src\/|\.tsx?\b/);
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/');
  });
});
