/**
 * What importing a read Scrivener project will make, for the author's choices: books (the Draft as
 * one, or each top-level folder of it as one), chapters (one per text, or one per folder with its
 * texts as scenes joined by scene breaks) in binder order, characters and locations from the
 * "Characters" and "Places" folders, and every thing left out with its reason. Pure and quick, so
 * the preview recomputes it on each choice (docs/decisions/0013-scrivener-import.md).
 */
import { type Chapter, LIMITS, chapterWordCount, visibleText } from '@chronicler/schema';

type ChapterStatus = Chapter['status'];
import type { BinderItem } from './binder';
import type { ProjectDocument, ScrivenerProject } from './project';

export type ChapterUnit = 'text' | 'folder';

export interface PlanOptions {
  unit: ChapterUnit;
  /** Each top-level folder of the Draft is a book of its own. */
  foldersAsBooks: boolean;
  /** Top-level binder folders outside the Draft (by UUID) to import as books too: other volumes, old drafts. */
  extraBooks?: readonly string[];
}

/** Top-level binder items outside the Draft, Research and Trash that hold text: offered as books of their own. */
export function otherTopLevel(project: ScrivenerProject): { uuid: string; title: string; items: number }[] {
  return project.binder.items
    .filter((i) => (i.type === 'Folder' || i.type === 'Text') && !CHARACTER_FOLDER.test(i.title) && !PLACE_FOLDER.test(i.title))
    .map((i) => ({ uuid: i.uuid, title: i.title, items: 1 + countAll(i.children) }));
}

export interface PlannedChapter {
  title: string;
  content: string;
  synopsis: string;
  notes: string;
  status: ChapterStatus;
  words: number;
}

export interface PlannedBook {
  title: string;
  description: string;
  chapters: PlannedChapter[];
  words: number;
}

export interface PlannedEntry {
  name: string;
  description: string;
}

export interface LeftOutLine {
  /** The binder item (or "Trash", "Research"). */
  item: string;
  reason: string;
}

export interface ImportPlan {
  books: PlannedBook[];
  characters: PlannedEntry[];
  locations: PlannedEntry[];
  leftOut: LeftOutLine[];
}

/** Written between scenes when a folder's texts are joined into one chapter. */
export const SCENE_BREAK = '* * *';

const CHARACTER_FOLDER = /^(characters?|people|cast|personnages?|figuren)$/i;
const PLACE_FOLDER = /^(places?|locations?|settings?|world|lieux|orte)$/i;

/** Scrivener's status names (its defaults and common variants) → the chapter's status. */
export function chapterStatusFor(status: string | null): ChapterStatus | null {
  if (!status) return null;
  const name = status.trim().toLowerCase();
  if (/^(in progress|writing|started)$/.test(name)) return 'in_progress';
  if (/^(first draft|draft|drafted|rough draft)$/.test(name)) return 'draft';
  if (/^(revised draft|second draft|revision|revised|to revise|editing|edited)$/.test(name)) return 'revision';
  if (/^(final draft|final|done|complete|completed|finished)$/.test(name)) return 'completed';
  return null;
}

const NON_TEXT: Record<string, string> = {
  Image: 'an image: only text is imported',
  PDF: 'a PDF: only text is imported',
  WebArchive: 'a web page: only text is imported',
  Other: 'a file that is not text: only text is imported',
};

const clampTitle = (title: string) => title.slice(0, LIMITS.title);
const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

interface Context {
  project: ScrivenerProject;
  leftOut: LeftOutLine[];
}

function documentOf(ctx: Context, item: BinderItem): ProjectDocument | undefined {
  return ctx.project.documents[item.uuid];
}

/** What a text holds that does not come in, listed under its title. */
function noteLeftOut(ctx: Context, item: BinderItem): void {
  const doc = documentOf(ctx, item);
  if (!doc) return;
  const reasons: string[] = [];
  if (doc.missing) reasons.push('no text file in the project (never written in, or missing): made as an empty chapter');
  if (doc.leftOut.image) reasons.push(plural(doc.leftOut.image, 'picture in the text', 'pictures in the text'));
  if (doc.leftOut.object) reasons.push(plural(doc.leftOut.object, 'embedded object', 'embedded objects'));
  if (doc.leftOut.footnote) reasons.push(plural(doc.leftOut.footnote, 'footnote', 'footnotes'));
  if (doc.leftOut.comment + doc.comments) reasons.push(plural(doc.leftOut.comment + doc.comments, 'comment', 'comments'));
  if (doc.leftOut.table) reasons.push(`${plural(doc.leftOut.table, 'table', 'tables')} (the words are kept, one paragraph per row)`);
  if (doc.leftOut.unknown.length) reasons.push(`unknown RTF formatting (${doc.leftOut.unknown.slice(0, 6).join(' ')}${doc.leftOut.unknown.length > 6 ? ' …' : ''})`);
  if (doc.snapshots.length) {
    const dates = doc.snapshots.map((s) => s.date.slice(0, 10));
    reasons.push(`${plural(doc.snapshots.length, 'snapshot', 'snapshots')} (earlier versions from ${dates[0]}${dates.length > 1 ? ` to ${dates[dates.length - 1]}` : ''}) not imported yet`);
  }
  for (const reason of reasons) ctx.leftOut.push({ item: item.title, reason });
}

/** Label, and a status that does not map, kept as text under the notes (the author loses neither). */
function metadataLines(ctx: Context, item: BinderItem): string[] {
  const lines: string[] = [];
  const label = item.labelId ? ctx.project.binder.labels[item.labelId] : undefined;
  const status = item.statusId ? ctx.project.binder.statuses[item.statusId] : undefined;
  if (label) lines.push(`Scrivener label: ${label}`);
  if (status && !chapterStatusFor(status)) lines.push(`Scrivener status: ${status}`);
  if (item.targetWords) lines.push(`Scrivener word target: ${item.targetWords.toLocaleString('en-US')}`);
  return lines;
}

function statusOf(ctx: Context, item: BinderItem): ChapterStatus {
  return chapterStatusFor(item.statusId ? (ctx.project.binder.statuses[item.statusId] ?? null) : null) ?? 'draft';
}

/** A chapter from one or more binder items (the first is the chapter; the rest its scenes). */
function chapterFrom(ctx: Context, head: BinderItem, scenes: readonly BinderItem[]): PlannedChapter[] {
  const parts: string[][] = [];
  const headDoc = documentOf(ctx, head);
  if (headDoc?.paragraphs.length) parts.push(headDoc.paragraphs);
  noteLeftOut(ctx, head);
  const notes: string[] = [];
  if (headDoc?.notes) notes.push(headDoc.notes);
  notes.push(...metadataLines(ctx, head));
  for (const scene of scenes) {
    const doc = documentOf(ctx, scene);
    noteLeftOut(ctx, scene);
    if (doc?.paragraphs.length) parts.push(doc.paragraphs);
    const sceneNotes = [doc?.synopsis ? `Synopsis: ${doc.synopsis}` : '', doc?.notes ?? '', ...metadataLines(ctx, scene)].filter(Boolean);
    if (sceneNotes.length) notes.push(`${scene.title}:`, ...sceneNotes);
  }
  let synopsis = headDoc?.synopsis ?? '';
  if (synopsis.length > LIMITS.chapterSynopsis) {
    notes.unshift(`Synopsis: ${synopsis}`);
    synopsis = `${synopsis.slice(0, LIMITS.chapterSynopsis - 1)}…`;
  }
  let noteText = notes.join('\n');
  if (noteText.length > LIMITS.chapterNotes) {
    ctx.leftOut.push({ item: head.title, reason: `notes longer than ${LIMITS.chapterNotes.toLocaleString('en-US')} characters: the rest is cut` });
    noteText = noteText.slice(0, LIMITS.chapterNotes);
  }
  const content = parts.map((p) => p.join('\n')).join(`\n${SCENE_BREAK}\n`);
  const status = statusOf(ctx, head);
  // A text longer than a chapter may hold is split, never cut.
  const pieces = splitContent(content);
  return pieces.map((piece, i) => ({
    title: clampTitle(pieces.length > 1 ? `${head.title} (part ${i + 1})` : head.title),
    content: piece,
    synopsis: i === 0 ? synopsis : '',
    notes: i === 0 ? noteText : '',
    status,
    words: chapterWordCount(piece),
  }));
}

function splitContent(content: string): string[] {
  if (content.length <= LIMITS.chapterContent) return [content];
  const out: string[] = [];
  let rest = content;
  while (rest.length > LIMITS.chapterContent) {
    let cut = rest.lastIndexOf('\n', LIMITS.chapterContent);
    if (cut <= 0) cut = LIMITS.chapterContent;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^\n/, '');
  }
  out.push(rest);
  return out;
}

const isText = (item: BinderItem) => item.type === 'Text' || item.type === 'Folder';

function hasText(ctx: Context, item: BinderItem): boolean {
  const doc = documentOf(ctx, item);
  return item.type === 'Text' || Boolean(doc && (doc.paragraphs.length || doc.synopsis || doc.notes));
}

/** Chapters of a container's children, in binder order, for the chosen unit. */
function chaptersIn(ctx: Context, container: BinderItem, unit: ChapterUnit): PlannedChapter[] {
  const out: PlannedChapter[] = [];
  for (const child of container.children) {
    if (!isText(child)) {
      ctx.leftOut.push({ item: child.title, reason: NON_TEXT[child.type] ?? NON_TEXT.Other! });
      continue;
    }
    out.push(...chaptersOf(ctx, child, unit));
  }
  return out;
}

function chaptersOf(ctx: Context, item: BinderItem, unit: ChapterUnit): PlannedChapter[] {
  const texts = item.children.filter(isText);
  const leaves = texts.every((c) => c.children.filter(isText).length === 0);
  if (unit === 'folder' && texts.length > 0 && leaves) {
    for (const media of item.children.filter((c) => !isText(c))) ctx.leftOut.push({ item: media.title, reason: NON_TEXT[media.type] ?? NON_TEXT.Other! });
    return chapterFrom(ctx, item, texts);
  }
  // A text (or a folder with words of its own) is a chapter, then its children follow it.
  const own = hasText(ctx, item) || item.children.length === 0 ? chapterFrom(ctx, item, []) : [];
  return [...own, ...chaptersIn(ctx, item, unit)];
}

function sumWords(chapters: readonly PlannedChapter[]): number {
  return chapters.reduce((n, c) => n + c.words, 0);
}

function book(title: string, description: string, chapters: PlannedChapter[]): PlannedBook {
  return { title: clampTitle(title), description, chapters, words: sumWords(chapters) };
}

function entriesIn(ctx: Context, folder: BinderItem): PlannedEntry[] {
  const out: PlannedEntry[] = [];
  const visit = (item: BinderItem) => {
    if (item.type === 'Text' || (item.type === 'Folder' && hasText(ctx, item))) {
      const doc = documentOf(ctx, item);
      const text = [doc?.synopsis ?? '', ...(doc?.paragraphs ?? []).map((p) => visibleText(p))].filter(Boolean).join('\n');
      out.push({ name: item.title.slice(0, LIMITS.shortText), description: text.slice(0, LIMITS.longText) });
    } else if (!isText(item)) ctx.leftOut.push({ item: item.title, reason: NON_TEXT[item.type] ?? NON_TEXT.Other! });
    item.children.forEach(visit);
  };
  folder.children.forEach(visit);
  return out;
}

function countAll(items: readonly BinderItem[]): number {
  return items.reduce((n, item) => n + 1 + countAll(item.children), 0);
}

export function planImport(project: ScrivenerProject, options: PlanOptions): ImportPlan {
  const ctx: Context = { project, leftOut: [] };
  const top = project.binder.items;
  const draft = top.find((i) => i.type === 'DraftFolder');
  const research = top.find((i) => i.type === 'ResearchFolder');
  const trash = top.find((i) => i.type === 'TrashFolder');
  const books: PlannedBook[] = [];
  const target = project.binder.draftTargetWords;
  const describe = (extra?: string) => [`Imported from the Scrivener project “${project.name}”.`, extra].filter(Boolean).join(' ');

  if (draft) {
    if (options.foldersAsBooks && draft.children.some((c) => isText(c) && c.children.length > 0)) {
      let loose: PlannedChapter[] = [];
      const flushLoose = () => {
        if (loose.length) books.push(book(project.name, describe(), loose));
        loose = [];
      };
      for (const child of draft.children) {
        if (!isText(child)) {
          ctx.leftOut.push({ item: child.title, reason: NON_TEXT[child.type] ?? NON_TEXT.Other! });
          continue;
        }
        if (child.children.length === 0) {
          loose.push(...chaptersOf(ctx, child, options.unit));
          continue;
        }
        flushLoose();
        // The book folder's synopsis describes the book; its own words (rare) are its first chapter.
        const doc = documentOf(ctx, child);
        const own = doc?.paragraphs.length ? chapterFrom(ctx, child, []) : [];
        const goal = child.targetWords ? `Word target: ${child.targetWords.toLocaleString('en-US')}.` : undefined;
        books.push(book(child.title, [doc?.synopsis, describe(goal)].filter(Boolean).join('\n'), [...own, ...chaptersIn(ctx, child, options.unit)]));
      }
      flushLoose();
    } else {
      const goal = target ? `Word target: ${target.toLocaleString('en-US')}.` : undefined;
      books.push(book(project.name, describe(goal), chaptersIn(ctx, draft, options.unit)));
    }
  }

  const characters: PlannedEntry[] = [];
  const locations: PlannedEntry[] = [];
  const sheetFolders = [...top, ...(research?.children ?? [])].filter((i) => i !== draft && i !== trash && i !== research);
  const used = new Set<BinderItem>();
  for (const folder of sheetFolders) {
    if (CHARACTER_FOLDER.test(folder.title)) characters.push(...entriesIn(ctx, folder));
    else if (PLACE_FOLDER.test(folder.title)) locations.push(...entriesIn(ctx, folder));
    else continue;
    used.add(folder);
  }
  if (research) {
    const rest = countAll(research.children.filter((c) => !used.has(c)));
    if (rest) ctx.leftOut.push({ item: research.title, reason: `${plural(rest, 'research item', 'research items')} outside “Characters” and “Places”: research stays in Scrivener` });
  }
  const extra = new Set(options.extraBooks ?? []);
  for (const item of top) {
    if (item === draft || item === research || item === trash || used.has(item)) continue;
    if (extra.has(item.uuid) && isText(item)) {
      books.push(book(item.title, describe(), item.children.length ? [...(documentOf(ctx, item)?.paragraphs.length ? chapterFrom(ctx, item, []) : []), ...chaptersIn(ctx, item, options.unit)] : chapterFrom(ctx, item, [])));
      continue;
    }
    ctx.leftOut.push({ item: item.title, reason: `outside the ${draft?.title ?? 'Draft'}: ${plural(1 + countAll(item.children), 'item', 'items')} not imported` });
  }
  if (trash && trash.children.length) ctx.leftOut.push({ item: trash.title, reason: `${plural(countAll(trash.children), 'item', 'items')} in the Trash` });
  return { books: books.filter((b) => b.chapters.length > 0), characters, locations, leftOut: ctx.leftOut };
}
