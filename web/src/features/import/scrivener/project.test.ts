/**
 * The import on whole projects: a real one saved by Scrivener 3.4 for macOS (sample-project.scriv)
 * and a Windows-shaped one written by hand (The Lantern Road.scriv; fixtures/README.md says why).
 */
import { describe, expect, it } from 'vitest';
import { parseMarkup } from '@chronicler/schema';
import { pickFolder } from './fixtures/load';
import { planImport } from './plan';
import { readProject } from './project';
import { folderSource } from './source';

const read = (folder: string) => readProject(folderSource(pickFolder(folder)));

describe('a Scrivener 3 project made on macOS', () => {
  it('makes one book of the Manuscript, its texts as chapters in binder order', async () => {
    const project = await read('sample-project.scriv');
    expect(project.binder.creator).toMatch(/^SCRMAC-3/);
    const plan = planImport(project, { unit: 'text', foldersAsBooks: true });
    expect(plan.books.map((b) => b.title)).toEqual(['sample-project']);
    const [book] = plan.books;
    expect(book!.chapters.map((c) => c.title)).toEqual(Array.from({ length: 37 }, (_, i) => `Chapter-${String(i + 1).padStart(2, '0')}`));
    expect(book!.chapters[0]!.content.split('\n')).toHaveLength(3);
    expect(book!.chapters[0]!.content).toMatch(/^Lorem ipsum dolor sit amet, consectetur adipiscing elit\./);
    expect(book!.chapters[1]!.content).toBe('Test List:\n• Item one with some text\n• Item two with more information\n• Item three for completeness\nAdditional notes after the list.');
    expect(book!.chapters[2]!.words).toBe(18);
  });

  it('lists what it leaves out: empty texts, front matter and notes outside the Manuscript, research, the Trash', async () => {
    const plan = planImport(await read('sample-project.scriv'), { unit: 'text', foldersAsBooks: true });
    const reasons = plan.leftOut.map((l) => `${l.item}: ${l.reason}`);
    expect(reasons.filter((r) => r.includes('made as an empty chapter'))).toHaveLength(34);
    expect(reasons.filter((r) => !r.includes('made as an empty chapter'))).toEqual([
      'Research: 3 research items outside “Characters” and “Places”: research stays in Scrivener',
      'Novel Format: outside the Manuscript: 1 item not imported',
      'Front Matter: outside the Manuscript: 11 items not imported',
      'Notes: outside the Manuscript: 1 item not imported',
      'Template Sheets: outside the Manuscript: 3 items not imported',
      'Trash: 76 items in the Trash',
    ]);
    expect(reasons).toContain('Novel Format: outside the Manuscript: 1 item not imported');
    expect(reasons).toContain('Front Matter: outside the Manuscript: 11 items not imported');
    expect(reasons).toContain('Research: 3 research items outside “Characters” and “Places”: research stays in Scrivener');
    expect(reasons).toContain('Trash: 76 items in the Trash');
    // The Trash's chapters never come in.
    expect(plan.books[0]!.chapters).toHaveLength(37);
    // Its Characters and Places folders are empty: nothing to offer.
    expect(plan.characters).toEqual([]);
    expect(plan.locations).toEqual([]);
  });

  it('imports a top-level folder outside the Manuscript as a book when the author asks', async () => {
    const project = await read('sample-project.scriv');
    const frontMatter = project.binder.items.find((i) => i.title === 'Front Matter')!;
    const plan = planImport(project, { unit: 'text', foldersAsBooks: true, extraBooks: [frontMatter.uuid] });
    expect(plan.books.map((b) => b.title)).toEqual(['sample-project', 'Front Matter']);
    expect(plan.books[1]!.chapters.map((c) => c.title)).toEqual(['Title Page', 'Title Page', 'Copyright', 'Dedication', 'Blank Page', 'Dedication']);
    expect(plan.books[1]!.chapters[0]).toMatchObject({ synopsis: 'Title page to the manuscript.' });
    expect(plan.leftOut).toContainEqual({ item: 'Cover', reason: 'an image: only text is imported' });
  });

  it('reads a synopsis and notes where the project has them', async () => {
    const project = await read('sample-project.scriv');
    const titlePage = project.documents['684ADA52-4D45-48D2-B03D-5ECB784963EE']!;
    expect(titlePage.synopsis).toBe('Title page to the manuscript.');
    expect(titlePage.notes.split('\n')[0]).toBe(
      'This is the title page of the manuscript. Note that its “Section Type” is automatically set to “Front Matter” in the Metadata pane of the Inspector, allowing the title page to be formatted differently from body text during Compile.',
    );
  });
});

describe('a Scrivener 3 project made on Windows', () => {
  it('makes a book of each top-level folder, one chapter per text, with nesting kept in order', async () => {
    const project = await read('The Lantern Road.scriv');
    expect(project.binder.creator).toMatch(/^SCRWIN-3/);
    const plan = planImport(project, { unit: 'text', foldersAsBooks: true });
    expect(plan.books.map((b) => [b.title, b.chapters.map((c) => c.title)])).toEqual([
      ['Part One', ['Arrival', 'Night Watch', 'Chapter 2: Letters', 'Postscript']],
      ['Part Two', ['Chapter 3: The River', 'Chapter 4: Lost Pages']],
    ]);
  });

  it('keeps italics, bold, curly quotes, dashes, scene breaks and another code page', async () => {
    const plan = planImport(await read('The Lantern Road.scriv'), { unit: 'text', foldersAsBooks: true });
    const [arrival, watch] = plan.books[0]!.chapters;
    expect(arrival!.content).toBe(
      [
        '‘Open the gate,’ Mara said. The lantern swung on its hook.',
        'She had read the word *carefully* in the ledger, and it meant **everything**: the toll, the road, the ***whole*** of it.',
        'The guard shrugged — he had seen her kind before – and lifted the bar.',
        'Café lights burned on the far bank.',
      ].join('\n'),
    );
    expect(parseMarkup(arrival!.content).filter((r) => r.italic).map((r) => r.text)).toEqual(['carefully', 'whole']);
    expect(watch!.content).toBe('The night watch began at ten.\n#\nBy midnight the river fog had reached the walls. Nobody slept.');
    expect(plan.books[1]!.chapters[0]!.content).toBe('The ferryman spoke only Russian: Привет, he said.\nIlya answered in kind, and the boat pushed off.');
  });

  it('puts synopsis and notes in the chapter; a status that maps becomes the chapter status, the rest stays in the notes', async () => {
    const plan = planImport(await read('The Lantern Road.scriv'), { unit: 'text', foldersAsBooks: true });
    const [arrival, , letters] = plan.books[0]!.chapters;
    expect(arrival).toMatchObject({
      synopsis: 'Mara reaches the Lantern Gate and talks her way through.',
      notes: 'Check the toll amount against chapter 3.\nMara is *tired* here.\nScrivener label: POV: Mara\nScrivener word target: 1,500',
      status: 'draft',
    });
    expect(letters!.status).toBe('revision');
    const [river, lost] = plan.books[1]!.chapters;
    expect(river).toMatchObject({ status: 'draft', notes: 'Ferry scene; check the dialect.\nScrivener label: POV: Ilya\nScrivener status: To Do' });
    expect(lost).toMatchObject({ content: '', status: 'completed' });
  });

  it('joins a folder’s texts into one chapter with scene breaks when the author chooses chapters per folder', async () => {
    const plan = planImport(await read('The Lantern Road.scriv'), { unit: 'folder', foldersAsBooks: false });
    expect(plan.books).toHaveLength(1);
    expect(plan.books[0]!.title).toBe('The Lantern Road');
    expect(plan.books[0]!.description).toContain('Word target: 90,000.');
    expect(plan.books[0]!.chapters.map((c) => c.title)).toEqual(['Chapter 1: The Gate', 'Chapter 2: Letters', 'Part Two']);
    const gate = plan.books[0]!.chapters[0]!;
    expect(gate.content.split('\n')).toEqual([
      '‘Open the gate,’ Mara said. The lantern swung on its hook.',
      'She had read the word *carefully* in the ledger, and it meant **everything**: the toll, the road, the ***whole*** of it.',
      'The guard shrugged — he had seen her kind before – and lifted the bar.',
      'Café lights burned on the far bank.',
      '* * *',
      'The night watch began at ten.',
      '#',
      'By midnight the river fog had reached the walls. Nobody slept.',
    ]);
    expect(gate.notes).toContain('Arrival:\nSynopsis: Mara reaches the Lantern Gate and talks her way through.');
    expect(plan.books[0]!.chapters[1]!.content.endsWith('* * *\nP.S. Burn this after reading.')).toBe(true);
  });

  it('offers the Research folder’s Characters and Places as characters and locations', async () => {
    const plan = planImport(await read('The Lantern Road.scriv'), { unit: 'text', foldersAsBooks: true });
    expect(plan.characters).toEqual([
      { name: 'Mara Voss', description: 'The protagonist.\nCourier on the Lantern Road; thirty years old; stubborn.' },
      { name: 'Ilya Brandt', description: 'A ferryman’s son who knows every crossing.' },
    ]);
    expect(plan.locations).toEqual([{ name: 'The Lantern Gate', description: 'The toll gate where the road meets the river, lit all night.' }]);
  });

  it('lists everything left out, with its reason, and never the Trash’s text', async () => {
    const plan = planImport(await read('The Lantern Road.scriv'), { unit: 'text', foldersAsBooks: true });
    expect(plan.leftOut.map((l) => `${l.item}: ${l.reason}`)).toEqual([
      'Arrival: 2 snapshots (earlier versions from 2024-03-09 to 2024-04-20) not imported yet',
      'Night Watch: unknown RTF formatting (\\scrvunknowndest \\zzunknownword)',
      'Chapter 2: Letters: 1 picture in the text',
      'Chapter 2: Letters: 1 footnote',
      'Chapter 2: Letters: 1 table (the words are kept, one paragraph per row)',
      'Map of the Road: an image: only text is imported',
      'Chapter 4: Lost Pages: no text file in the project (never written in, or missing): made as an empty chapter',
      'Research: 1 research item outside “Characters” and “Places”: research stays in Scrivener',
      'Trash: 1 item in the Trash',
    ]);
    const all = plan.books.flatMap((b) => b.chapters.map((c) => c.content)).join('\n');
    expect(all).not.toContain('A scene that was cut.');
    expect(all).not.toContain('hidden words');
  });

  it('dates snapshots as Scrivener dated them', async () => {
    const project = await read('The Lantern Road.scriv');
    expect(project.documents['5A1C0A43-7E1B-4C58-9D0B-8B7E0C2D1A04']!.snapshots).toEqual([
      { title: 'Before the rewrite', date: '2024-03-09T21:04:11+00:00' },
      { title: 'Untitled Snapshot', date: '2024-04-20T08:30:00+01:00' },
    ]);
  });
});
