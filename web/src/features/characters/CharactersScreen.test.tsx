/**
 * The Characters page over a real Dexie database (fake-indexeddb) with the real mutators: what the
 * author sees, and what lands in the local store and its outbox for the sync engine to send.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { notifications } from '@mantine/notifications';
import { type Character, type PlanName, ROLE_MESSAGES } from '@chronicler/schema';
import { ToastRegion } from '@/components/ToastRegion';
import { useSession } from '@/lib/session';
import type { ChroniclerDb } from '@chronicler/sync-client';
import { SyncTestProvider } from '@/lib/sync';
import { USER_ID, freshDb, serverBook, serverCharacter, serverSeries } from '@chronicler/sync-client/testing';
import { CharactersScreen } from './CharactersScreen';
import { reloadCurrentSeriesId, setCurrentSeriesId } from '@/lib/currentSeries';
import { PLACEHOLDER_IMAGES } from './model/image-generation';
import { serverRelationship as relationship, serverWorldEntry } from '@/test/fixtures';
import { renderInTheme } from '@/test/render';

// Dialog-heavy flows with userEvent run slowly on a busy 2-core machine.
vi.setConfig({ testTimeout: 60_000 });
configure({ asyncUtilTimeout: 5_000 });

let db: ChroniclerDb;

function signIn(plan: PlanName) {
  useSession.setState({
    status: 'authenticated',
    user: { id: USER_ID, username: 'ursula', displayName: 'Ursula', email: null, plan },
    source: 'server',
  });
}

function renderScreen(options: { random?: () => number } = {}) {
  // No pause between simulated keystrokes: these flows type into big dialogs.
  const user = userEvent.setup({ delay: null });
  const utils = renderInTheme(
    <>
      <MemoryRouter>
        <SyncTestProvider db={db}>
          <CharactersScreen imageOptions={{ wait: async () => undefined, random: options.random ?? (() => 0.5) }} />
        </SyncTestProvider>
      </MemoryRouter>
      <ToastRegion />
    </>,
  );
  return { user, ...utils };
}

/** The page has read its series and characters from the local database. */
async function loaded() {
  await screen.findByRole('tab', { name: /Main Characters/ });
  await waitFor(() => expect(screen.queryByLabelText('Loading characters')).toBeNull());
}

async function seed(plan: PlanName, characters: Partial<Character>[] = [], over: { title?: string } = {}) {
  signIn(plan);
  const series = serverSeries({ title: over.title ?? 'Earthsea' });
  await db.series.put(series);
  const rows = characters.map((c) => serverCharacter(series.id, c));
  await db.characters.bulkPut(rows);
  return { series, rows };
}

async function toast(title: string) {
  return screen.findByText(title, { selector: '[data-toast-id] *' });
}

/** Focus and paste: what the author's text ends up as, without a render per character. */
async function fill(user: ReturnType<typeof userEvent.setup>, element: HTMLElement, text: string) {
  await user.click(element);
  await user.paste(text);
}

async function pickOption(user: ReturnType<typeof userEvent.setup>, label: string | RegExp, option: string) {
  await user.click(screen.getByRole('combobox', { name: label }));
  await user.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  notifications.clean();
  reloadCurrentSeriesId();
  db = freshDb();
});

afterEach(async () => {
  db.close();
});

describe('Characters page: series', () => {
  it('without a series shows No Series Selected, and New Character says no series is selected', async () => {
    signIn('wordsmith');
    const { user } = renderScreen();
    expect(await screen.findByText('No Series Selected')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'New Character' }));
    expect(await toast('No series selected')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('opens on the remembered current series and switches with the selector', async () => {
    signIn('wordsmith');
    const a = serverSeries({ title: 'Earthsea', createdAt: '2026-01-01T00:00:00.000Z' });
    const b = serverSeries({ title: 'Gormenghast', createdAt: '2026-01-02T00:00:00.000Z' });
    await db.series.bulkPut([a, b]);
    await db.characters.bulkPut([
      serverCharacter(a.id, { name: 'Ged', isProtagonist: true }),
      serverCharacter(b.id, { name: 'Titus', isProtagonist: true }),
    ]);
    setCurrentSeriesId(b.id);
    const { user } = renderScreen();
    expect(await screen.findByRole('heading', { name: 'Titus' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Ged' })).toBeNull();
    await pickOption(user, 'Series', 'Earthsea');
    expect(await screen.findByRole('heading', { name: 'Ged' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Titus' })).toBeNull();
  });
});

describe('Characters page: tabs, search and cards', () => {
  it('sorts characters into Main, Supporting and Minor and filters by name', async () => {
    await seed('wordsmith', [
      { name: 'Ged', role: 'protagonist', isProtagonist: true, bookAppearances: [1, 2, 3] },
      { name: 'Ogion', role: 'mentor', bookAppearances: [1] },
      { name: 'Vetch', role: 'supporting', bookAppearances: [1, 3] },
      { name: 'Jasper', role: 'minor' },
    ]);
    const { user } = renderScreen();
    const ged = await screen.findByRole('article', { name: 'Ged' });
    expect(within(ged).getByText('Books 1-3')).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Ogion' })).toBeNull();

    await user.click(screen.getByRole('tab', { name: /Supporting Characters/ }));
    expect(await screen.findByRole('article', { name: 'Ogion' })).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Ogion' })).getByText('Book 1')).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Vetch' })).getByText('Books 1 and 3')).toBeTruthy();
    expect(screen.queryByRole('article', { name: 'Jasper' })).toBeNull();

    await user.type(screen.getByRole('searchbox', { name: 'Search characters' }), 'VET');
    await waitFor(() => expect(screen.queryByRole('article', { name: 'Ogion' })).toBeNull());
    expect(screen.getByRole('article', { name: 'Vetch' })).toBeTruthy();

    await user.click(screen.getByRole('tab', { name: /Minor Characters/ }));
    expect(await screen.findByText('No Characters Found')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(await screen.findByRole('article', { name: 'Jasper' })).toBeTruthy();
    expect(within(screen.getByRole('article', { name: 'Jasper' })).getByText('None')).toBeTruthy();
  });

  it('the star marks a character as main with a partial update', async () => {
    const { rows } = await seed('wordsmith', [{ name: 'Vetch', role: 'supporting' }]);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('tab', { name: /Supporting Characters/ }));
    await user.click(await screen.findByRole('button', { name: 'Mark Vetch as main character' }));
    expect(await toast('Character updated')).toBeTruthy();
    expect((await db.characters.get(rows[0]!.id))?.isProtagonist).toBe(true);
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'PUT', path: `/api/characters/${rows[0]!.id}`, body: { isProtagonist: true } });
    // Now under Main, where the star removes it again (from the menu this time).
    await user.click(screen.getByRole('tab', { name: /Main Characters/ }));
    await user.click(await screen.findByRole('button', { name: 'More actions for Vetch' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove as main' }));
    await waitFor(async () => expect((await db.characters.get(rows[0]!.id))?.isProtagonist).toBe(false));
  });

  it('deletes a character after the confirmation', async () => {
    const { rows } = await seed('wordsmith', [{ name: 'Ged', isProtagonist: true }]);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'More actions for Ged' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('Are you sure you want to delete this character? This action cannot be undone.')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await toast('Character deleted')).toBeTruthy();
    expect(await db.characters.get(rows[0]!.id)).toBeUndefined();
    expect((await db.outbox.toArray()).map((e) => `${e.method} ${e.path}`)).toEqual([`DELETE /api/characters/${rows[0]!.id}`]);
  });
});

describe('Characters page: New Character and editing', () => {
  it('creates a character with every field and queues it for the server', async () => {
    const { series } = await seed('wordsmith');
    // A seven-book saga: its own books by title, Books 6 and 7 included.
    const titles = ['A Wizard of Earthsea', 'The Tombs of Atuan', 'The Farthest Shore', 'Tehanu', 'Tales from Earthsea', 'The Other Wind', 'Firelight'];
    await db.books.bulkPut(titles.map((title, i) => serverBook(series.id, { title, position: i + 1 })));
    const { user } = renderScreen();
    await loaded();
    await user.click(await screen.findByRole('button', { name: 'New Character' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Character' });

    // Name is required: nothing is written without it.
    await user.click(within(dialog).getByRole('button', { name: 'Create Character' }));
    expect(await within(dialog).findByText('Character name is required')).toBeTruthy();
    expect(await db.characters.count()).toBe(0);

    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Tenar');
    await pickOption(user, 'Role', 'Antagonist');
    await pickOption(user, 'Status', 'Unknown');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Age' }), 'about 16');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Occupation' }), 'Priestess');
    await fill(user, within(dialog).getByRole('textbox', { name: /^Description/ }), 'The Eaten One');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Appearance' }), 'Pale');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Personality' }), 'Fierce');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Goals' }), 'Freedom');
    await fill(user, within(dialog).getByRole('textbox', { name: 'Backstory' }), 'Taken as a child');
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: 'Book 7: Firelight' })).toBeTruthy());
    expect(within(dialog).getAllByRole('checkbox', { name: /^Book \d+: / }).map((box) => box.getAttribute('value'))).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    await user.click(within(dialog).getByRole('checkbox', { name: 'Book 6: The Other Wind' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Book 7: Firelight' }));
    await user.click(within(dialog).getByRole('switch', { name: 'Main character' }));
    await fill(user, within(dialog).getByRole('textbox', { name: 'Avatar URL' }), '/img/tenar.png');
    await user.click(within(dialog).getByRole('button', { name: 'Create Character' }));

    expect(await toast('Character added')).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const [row] = await db.characters.toArray();
    expect(row).toMatchObject({
      seriesId: series.id,
      name: 'Tenar',
      role: 'antagonist',
      status: 'unknown',
      age: 'about 16',
      occupation: 'Priestess',
      description: 'The Eaten One',
      appearance: 'Pale',
      personality: 'Fierce',
      goals: 'Freedom',
      backstory: 'Taken as a child',
      bookAppearances: [6, 7],
      isProtagonist: true,
      avatarUrl: '/img/tenar.png',
    });
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ method: 'POST', path: '/api/characters' });
    expect((entry!.body as { bookAppearances: number[] }).bookAppearances).toEqual([6, 7]);
    const card = await screen.findByRole('article', { name: 'Tenar' });
    expect(within(card).getByText('Books 6 and 7')).toBeTruthy();
  });

  it('View Details opens the edit dialog and saves only what changed', async () => {
    const { rows } = await seed('wordsmith', [{ name: 'Ged', isProtagonist: true, occupation: 'Goatherd' }]);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'View details of Ged' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Character' });
    const occupation = within(dialog).getByRole('textbox', { name: 'Occupation' });
    expect((occupation as HTMLInputElement).value).toBe('Goatherd');
    await user.clear(occupation);
    await user.type(occupation, 'Archmage');
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await toast('Character updated')).toBeTruthy();
    expect((await db.characters.get(rows[0]!.id))?.occupation).toBe('Archmage');
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ occupation: 'Archmage' });
  });

  it('lists the world entries that link the character, its leadership marked (docs/decisions/0020-world-entries.md)', async () => {
    const { rows, series } = await seed('wordsmith', [{ name: 'Ged', isProtagonist: true }]);
    const ged = rows[0]!;
    await db.worldEntries.bulkPut([
      serverWorldEntry(series.id, 'politics', { name: 'Council of Roke', leaderId: ged.id }),
      serverWorldEntry(series.id, 'culture', { name: 'Hardic people', characterIds: [ged.id] }),
      serverWorldEntry(series.id, 'culture', { name: 'Kargs' }),
    ]);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'View details of Ged' }));
    const linked = await within(await screen.findByRole('dialog', { name: 'Edit Character' })).findByTestId('linked-world-entries');
    expect(within(linked).getAllByRole('link').map((a) => a.textContent)).toEqual(['Council of Roke', 'Hardic people']);
    expect(linked.textContent).toContain('Faction (leader)');
  });
});

describe('Characters page: aliases and "always include" for the writing companion', () => {
  it('are set with the keyboard, stored trimmed and without repeats, and sent as a partial update when changed', async () => {
    const { rows } = await seed('wordsmith', [{ name: 'Ged', isProtagonist: true }]);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'View details of Ged' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Character' });
    const aliases = within(dialog).getByLabelText(/^Aliases/, { selector: 'input' });
    expect(aliases.getAttribute('aria-describedby')).toBeTruthy();
    await user.click(aliases);
    await user.keyboard('Sparrowhawk{Enter}  the Archmage  ,sparrowhawk{Enter}');
    const always = within(dialog).getByRole('switch', { name: /^Always include in companion context/ });
    expect((always as HTMLInputElement).checked).toBe(false);
    always.focus();
    await user.keyboard(' ');
    expect((always as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Save Changes' }));
    expect(await toast('Character updated')).toBeTruthy();
    expect(await db.characters.get(rows[0]!.id)).toMatchObject({ aliases: ['Sparrowhawk', 'the Archmage'], alwaysInclude: true });
    const [entry] = await db.outbox.toArray();
    expect(entry!.body).toEqual({ aliases: ['Sparrowhawk', 'the Archmage'], alwaysInclude: true });

    // Reopened: the stored values are shown; removing one alias sends only the aliases.
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await user.click(await screen.findByRole('button', { name: 'View details of Ged' }));
    const again = await screen.findByRole('dialog', { name: 'Edit Character' });
    expect(within(again).getByText('the Archmage')).toBeTruthy();
    await user.click(within(again).getByLabelText(/^Aliases/, { selector: 'input' }));
    await user.keyboard('{Backspace}');
    await user.click(within(again).getByRole('button', { name: 'Save Changes' }));
    await waitFor(async () => expect((await db.characters.get(rows[0]!.id))?.aliases).toEqual(['Sparrowhawk']));
  });
});

describe('Characters page: plan limit (Apprentice, 10 per series)', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Character ${i + 1}`, role: 'minor' as const }));

  it('says nothing with room to spare', async () => {
    await seed('apprentice', many(5));
    renderScreen();
    await screen.findByRole('tab', { name: /Main Characters/ });
    expect(screen.queryByTestId('character-limit')).toBeNull();
  });

  it('warns at 8 of 10', async () => {
    await seed('apprentice', many(8));
    renderScreen();
    expect(await screen.findByText('8 of 10 characters on the Apprentice plan')).toBeTruthy();
    expect(screen.getByText('You can add 2 more characters to this series on your plan.')).toBeTruthy();
  });

  it('locks New Character at 10 with the upgrade message and never opens the dialog', async () => {
    await seed('apprentice', many(10));
    const { user } = renderScreen();
    expect(await screen.findByText('10 of 10 characters on the Apprentice plan')).toBeTruthy();
    // Worded as a limit, not as a locked feature (docs/spec-differences.md).
    const message = 'You have used all 10 characters your plan allows in this series. Upgrade to The Wordsmith to add more.';
    expect(screen.getByTestId('character-limit').textContent).toContain(message);
    expect(screen.getByTestId('character-limit').textContent).not.toContain('This feature requires');
    const button = screen.getByRole('button', { name: 'New Character' });
    expect(button.getAttribute('data-locked')).toBe('true');
    await user.click(button);
    expect(await toast('Feature Locked')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('does not limit Wordsmith', async () => {
    await seed('wordsmith', many(12));
    renderScreen();
    await screen.findByRole('tab', { name: /Main Characters/ });
    expect(screen.queryByTestId('character-limit')).toBeNull();
  });
});

describe('Character Relationship Map', () => {
  it('is locked for an Apprentice with the tier message and an Upgrade link', async () => {
    await seed('apprentice', [{ name: 'Ged', isProtagonist: true }]);
    renderScreen();
    const section = await screen.findByRole('region', { name: 'Character Relationship Map' });
    expect(await within(section).findByText('Feature Locked')).toBeTruthy();
    expect(within(section).getByText('This feature requires the Wordsmith tier or higher. Please upgrade your subscription to access it.')).toBeTruthy();
    expect(within(section).getByRole('link', { name: 'Upgrade' }).getAttribute('href')).toBe('/subscription');
  });

  it('draws the nodes on the circle with the spec sizes and colours, and the links in their colours', async () => {
    const { series, rows } = await seed('wordsmith', [
      { name: 'Ged', isProtagonist: true },
      { name: 'Cob', role: 'antagonist' },
      { name: 'Vetch', role: 'supporting' },
    ]);
    const [ged, cob, vetch] = rows as [Character, Character, Character];
    await db.characterRelationships.bulkPut([
      relationship(series.id, ged, cob, { relationshipType: 'conflict', description: 'The dead hand reaching out of the dark' }),
      relationship(series.id, ged, vetch, { relationshipType: 'ally' }),
    ]);
    const { user, container } = renderScreen();
    const map = await screen.findByTestId('relationship-map');
    await waitFor(() => expect(within(map).getAllByTestId('map-link')).toHaveLength(2));
    const svg = map.querySelector('svg')!;
    expect(svg.getAttribute('viewBox')).toBe('0 0 800 350');

    const nodes = within(map).getAllByTestId('map-node');
    // Characters come from the store in name order: Cob, Ged, Vetch at angles 0, 2π/3, 4π/3.
    const byName = (name: string) => nodes.find((n) => n.getAttribute('aria-label')?.startsWith(`${name},`))!;
    expect(byName('Cob').getAttribute('transform')).toBe('translate(520.00 175.00)');
    expect(byName('Ged').getAttribute('transform')).toBe('translate(340.00 278.92)');
    expect(byName('Ged').querySelectorAll('circle')[1]!.getAttribute('r')).toBe('40');
    expect(byName('Cob').querySelectorAll('circle')[1]!.getAttribute('r')).toBe('30');
    expect(byName('Ged').getAttribute('data-color')).toBe('blue');
    expect(byName('Cob').getAttribute('data-color')).toBe('red');
    expect(byName('Vetch').getAttribute('data-color')).toBe('indigo');

    const conflict = within(map).getAllByTestId('map-link').find((l) => l.getAttribute('data-type') === 'conflict')!;
    const line = conflict.querySelectorAll('path')[1]!;
    expect(line.getAttribute('stroke')).toBe('#F87171');
    expect(line.getAttribute('stroke-dasharray')).toBeTruthy();
    const ally = within(map).getAllByTestId('map-link').find((l) => l.getAttribute('data-type') === 'ally')!;
    expect(ally.querySelectorAll('path')[1]!.getAttribute('stroke')).toBe('#B4C6FC');
    expect(ally.querySelectorAll('path')[1]!.getAttribute('stroke-dasharray')).toBeNull();

    // Hover (or focus) shows the description cut at 30 characters.
    await user.hover(conflict);
    expect((await within(map).findByTestId('map-tooltip')).textContent).toBe('Conflict: The dead hand reaching out of...');
    expect(container).toBeTruthy();
  });

  it('zooms in steps of 0.2 between 50% and 200%, and resets to 100%', async () => {
    await seed('wordsmith', [{ name: 'Ged', isProtagonist: true }]);
    const { user } = renderScreen();
    const map = await screen.findByTestId('relationship-map');
    const svg = () => map.querySelector('svg')!;
    await waitFor(() => expect(svg()).toBeTruthy());
    expect(screen.getByTestId('zoom-level').textContent).toBe('100%');
    await user.click(screen.getByRole('button', { name: 'Zoom in' }));
    expect(svg().getAttribute('data-zoom')).toBe('1.2');
    for (let i = 0; i < 10; i++) {
      const button = screen.getByRole('button', { name: 'Zoom in' }) as HTMLButtonElement;
      if (button.disabled) break;
      await user.click(button);
    }
    expect(screen.getByTestId('zoom-level').textContent).toBe('200%');
    expect((screen.getByRole('button', { name: 'Zoom in' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(screen.getByTestId('zoom-level').textContent).toBe('100%');
    for (let i = 0; i < 10; i++) {
      const button = screen.getByRole('button', { name: 'Zoom out' }) as HTMLButtonElement;
      if (button.disabled) break;
      await user.click(button);
    }
    expect(screen.getByTestId('zoom-level').textContent).toBe('50%');
  });

  it('opens the character detail dialog when a node is clicked or activated with the keyboard', async () => {
    await seed('wordsmith', [{ name: 'Ged', isProtagonist: true, occupation: 'Archmage', description: 'A wizard of Roke' }]);
    const { user } = renderScreen();
    const node = await screen.findByRole('button', { name: 'Ged, main character. Open details' });
    await user.click(node);
    const dialog = await screen.findByRole('dialog', { name: 'Character details' });
    expect(within(dialog).getByText('A wizard of Roke')).toBeTruthy();
    expect(within(dialog).getByText('Archmage')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    node.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Character details' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Edit character' }));
    expect(await screen.findByRole('dialog', { name: 'Edit Character' })).toBeTruthy();
  });

  it('adds a relationship: the button waits for both characters, the target never equals the source', async () => {
    await seed('wordsmith', [
      { name: 'Ged', isProtagonist: true },
      { name: 'Tenar', role: 'supporting' },
      { name: 'Ogion', role: 'mentor' },
    ]);
    const { user } = renderScreen();
    await loaded();
    await user.click(await screen.findByRole('button', { name: 'Add Relationship' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Relationship' });
    const add = () => within(dialog).getByRole('button', { name: 'Add Relationship' }) as HTMLButtonElement;
    expect(add().disabled).toBe(true);

    await pickOption(user, 'Source character', 'Ged');
    expect(add().disabled).toBe(true);
    await user.click(within(dialog).getByRole('combobox', { name: 'Target character' }));
    const targets = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(targets).toEqual(['Ogion', 'Tenar']);
    await user.click(screen.getByRole('option', { name: 'Tenar' }));
    expect(add().disabled).toBe(false);

    // Choosing the target as the source clears the target.
    await pickOption(user, 'Source character', 'Tenar');
    expect((within(dialog).getByRole('combobox', { name: 'Target character' }) as HTMLInputElement).value).toBe('');
    expect(add().disabled).toBe(true);

    await pickOption(user, 'Target character', 'Ged');
    await pickOption(user, 'Relationship type', 'Romantic');
    await user.type(within(dialog).getByRole('textbox', { name: 'Description' }), 'The ring of Erreth-Akbe');
    await user.click(add());

    expect(await toast('Relationship added')).toBeTruthy();
    const [row] = await db.characterRelationships.toArray();
    expect(row).toMatchObject({ relationshipType: 'romantic', description: 'The ring of Erreth-Akbe' });
    const links = await screen.findAllByTestId('map-link');
    expect(links).toHaveLength(1);
    expect(links[0]!.getAttribute('aria-label')).toBe('Tenar and Ged: Romantic, The ring of Erreth-Akbe. Edit relationship');
    const entry = (await db.outbox.toArray()).find((e) => e.entity === 'characterRelationships');
    expect(entry).toMatchObject({ method: 'POST', path: '/api/character-relationships' });
  });

  it('edits and deletes a relationship from its link', async () => {
    const { series, rows } = await seed('wordsmith', [{ name: 'Ged', isProtagonist: true }, { name: 'Vetch' }]);
    const rel = relationship(series.id, rows[0]!, rows[1]!, { relationshipType: 'ally', description: 'Friends' });
    await db.characterRelationships.put(rel);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'Ged and Vetch: Ally, Friends. Edit relationship' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit Relationship' });
    await pickOption(user, 'Relationship type', 'Family');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await toast('Relationship updated')).toBeTruthy();
    expect((await db.characterRelationships.get(rel.id))?.relationshipType).toBe('family');

    await user.click(await screen.findByRole('button', { name: 'Ged and Vetch: Family, Friends. Edit relationship' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit Relationship' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await user.click(within(dialog).getByRole('button', { name: 'Delete relationship' }));
    expect(await toast('Relationship deleted')).toBeTruthy();
    expect(await db.characterRelationships.get(rel.id)).toBeUndefined();
    await waitFor(() => expect(screen.queryAllByTestId('map-link')).toHaveLength(0));
  });
});

describe('AI character image', () => {
  it('is a Premium Feature on the Apprentice plan', async () => {
    await seed('apprentice');
    const { user } = renderScreen();
    await loaded();
    await user.click(await screen.findByRole('button', { name: 'New Character' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Character' });
    expect(within(dialog).getByText('Available in Wordsmith plan and higher')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Generate image' }));
    expect(await toast('Premium Feature')).toBeTruthy();
    expect(screen.getByText('AI Character Image generation is available in the Wordsmith plan and higher.')).toBeTruthy();
  });

  it('needs a description, then picks one of the bundled placeholder images', async () => {
    await seed('wordsmith');
    const { user } = renderScreen({ random: () => 0.9 });
    await loaded();
    await user.click(await screen.findByRole('button', { name: 'New Character' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Character' });
    expect(within(dialog).queryByText('Available in Wordsmith plan and higher')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Generate image' }));
    expect(await toast('Description Required')).toBeTruthy();
    expect(screen.getByText('Please enter a description for your character.')).toBeTruthy();

    await fill(user, within(dialog).getByRole('textbox', { name: /^Description/ }), 'A tall woman with a scar');
    await user.click(within(dialog).getByRole('button', { name: 'Generate image' }));
    expect(await toast('Image Generated')).toBeTruthy();
    expect((within(dialog).getByRole('textbox', { name: 'Avatar URL' }) as HTMLInputElement).value).toBe(PLACEHOLDER_IMAGES[2]);
  });

  it('says Generation Failed when it fails', async () => {
    await seed('wordsmith');
    const { user } = renderScreen({
      random: () => {
        throw new Error('boom');
      },
    });
    await loaded();
    await user.click(await screen.findByRole('button', { name: 'New Character' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Character' });
    await fill(user, within(dialog).getByRole('textbox', { name: /^Description/ }), 'Someone');
    await user.click(within(dialog).getByRole('button', { name: 'Generate image' }));
    expect(await toast('Generation Failed')).toBeTruthy();
    expect(screen.getByText('There was a problem generating your image. Please try again.')).toBeTruthy();
  });
});

describe('Characters page: errors', () => {
  it('reports a write that fails locally with the catalogue toast and its reason', async () => {
    const { rows } = await seed('wordsmith', [{ name: 'Ged', isProtagonist: true }]);
    const { user } = renderScreen();
    await user.click(await screen.findByRole('button', { name: 'More actions for Ged' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    // The character goes away (a sync from another device) while the confirmation is open.
    await act(async () => {
      await db.characters.delete(rows[0]!.id);
    });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await toast('Error deleting character')).toBeTruthy();
    expect(screen.getByText('This character is no longer available')).toBeTruthy();
    expect(await screen.findByText('No Characters Found')).toBeTruthy();
  });
});

describe('a protagonist is a main character by default', () => {
  it('created with role Protagonist, it lands under Main Characters; the switch still overrides', async () => {
    await seed('wordsmith');
    const { user } = renderScreen();
    await loaded();
    await user.click(await screen.findByRole('button', { name: 'New Character' }));
    let dialog = await screen.findByRole('dialog', { name: 'New Character' });
    await fill(user, within(dialog).getByRole('textbox', { name: /Name/ }), 'Ged');
    await pickOption(user, 'Role', 'Protagonist');
    expect((within(dialog).getByRole('switch', { name: 'Main character' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Create Character' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect((await db.characters.toArray()).map((c) => [c.name, c.isProtagonist])).toEqual([['Ged', true]]);
    const mainPanel = await screen.findByRole('tabpanel', { name: /Main Characters/ });
    expect(await within(mainPanel).findByText('Ged')).toBeTruthy();

    // The author turns the switch off: the protagonist stays a supporting character.
    await user.click(await screen.findByRole('button', { name: 'New Character' }));
    dialog = await screen.findByRole('dialog', { name: 'New Character' });
    await fill(user, within(dialog).getByRole('textbox', { name: /Name/ }), 'Tenar');
    await pickOption(user, 'Role', 'Protagonist');
    await user.click(within(dialog).getByRole('switch', { name: 'Main character' }));
    await pickOption(user, 'Role', 'Mentor');
    await pickOption(user, 'Role', 'Protagonist');
    expect((within(dialog).getByRole('switch', { name: 'Main character' }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Create Character' }));
    await waitFor(async () => expect((await db.characters.toArray()).find((c) => c.name === 'Tenar')?.isProtagonist).toBe(false));
  });
});

describe('Characters page: a viewer of a shared series', () => {
  it('reads the cast with the read-only notice and no writing control, and can edit the moment the role becomes editor', async () => {
    signIn('wordsmith');
    const other = '0190a6f0-0000-7000-8000-0000000000aa';
    const series = serverSeries({ title: 'Their Saga', ownerId: other });
    await db.series.put(series);
    await db.characters.bulkPut([serverCharacter(series.id, { name: 'Ged', isProtagonist: true }), serverCharacter(series.id, { name: 'Tenar', isProtagonist: true })]);
    await db.seriesRoles.put({ seriesId: series.id, role: 'viewer', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    setCurrentSeriesId(series.id);
    const { user } = renderScreen();
    expect(await screen.findByRole('heading', { name: 'Ged' })).toBeTruthy();
    expect((await screen.findByTestId('read-only-notice')).textContent).toContain(ROLE_MESSAGES.readOnly);
    expect(screen.queryByRole('button', { name: 'New Character' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark Ged as main character' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Ged as main character' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add Relationship' })).toBeNull();
    // The card's menu shows the details, not the form.
    await user.click(screen.getByRole('button', { name: 'More actions for Ged' }));
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'View details' }));
    const details = await screen.findByRole('dialog', { name: 'Character details' });
    expect(within(details).queryByRole('button', { name: 'Edit character' })).toBeNull();
    await user.click(within(details).getByRole('button', { name: 'Close' }));

    await db.seriesRoles.put({ seriesId: series.id, role: 'editor', ownerId: other, ownerName: 'Ged Sparrowhawk' });
    expect(await screen.findByRole('button', { name: 'New Character' })).toBeTruthy();
    expect(screen.queryByTestId('read-only-notice')).toBeNull();
    expect(screen.getByRole('button', { name: 'Remove Ged as main character' })).toBeTruthy();
  });
});
