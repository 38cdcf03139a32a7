/**
 * A whole Scrivener 3 project read from its files: the binder tree with each item's text (as
 * chapter markup), synopsis, notes and dated snapshots, and what could not be read. Pure apart from
 * reading the files it is given; runs in the import worker (worker.ts) and in tests. Turning it into
 * books and chapters is plan.ts, so the preview can switch choices without reading again.
 */
import { type Binder, type BinderItem, readBinder } from './binder';
import { type RtfLeftOut, emptyRtfLeftOut, readRtf } from './rtf';
import { MESSAGES, type ProjectFiles, ScrivenerReadError } from './source';

export interface Snapshot {
  title: string;
  /** As Scrivener dated it, ISO 8601 (e.g. 2021-08-26T08:55:48+01:00). */
  date: string;
}

export interface ProjectDocument {
  /** Paragraphs of chapter markup; empty for a folder with no text. */
  paragraphs: string[];
  synopsis: string;
  notes: string;
  snapshots: Snapshot[];
  /** The binder names a text whose file is missing. */
  missing: boolean;
  /** Inspector comments and footnotes (content.comments), not imported. */
  comments: number;
  leftOut: SerializableRtfLeftOut;
}

export type SerializableRtfLeftOut = Omit<RtfLeftOut, 'unknown'> & { unknown: string[] };

export interface ScrivenerProject {
  name: string;
  binder: Binder;
  /** By binder UUID; items without a Files/Data folder (empty texts, plain folders) have none. */
  documents: Record<string, ProjectDocument>;
}

const decoder = new TextDecoder('utf-8');

/** "2021-08-26 08:55:48 +0100" → "2021-08-26T08:55:48+01:00". */
export function scrivenerDate(value: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T-](\d{2})[:-](\d{2})[:-](\d{2}) ?([+-])(\d{2}):?(\d{2})$/.exec(value.trim());
  if (!m) return null;
  return `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}${m[7]}${m[8]}:${m[9]}`;
}

function snapshotsOf(indexXml: string | null, fileNames: readonly string[]): Snapshot[] {
  const out: Snapshot[] = [];
  if (indexXml) {
    const re = /<Snapshot>[\s\S]*?<Title>([\s\S]*?)<\/Title>[\s\S]*?<Date>([\s\S]*?)<\/Date>[\s\S]*?<\/Snapshot>/g;
    for (let m = re.exec(indexXml); m; m = re.exec(indexXml)) {
      const date = scrivenerDate(m[2]!);
      if (date) out.push({ title: decodeXml(m[1]!.trim()) || 'Untitled Snapshot', date });
    }
  }
  if (out.length === 0) {
    // No index: the file names carry the dates (2021-08-26-08-55-48+0100.rtf).
    for (const name of fileNames) {
      const date = scrivenerDate(name.replace(/\.rtf$/i, ''));
      if (date) out.push({ title: 'Untitled Snapshot', date });
    }
  }
  return out.sort((a, b) => Date.parse(a.date) - Date.parse(b.date));
}

function decodeXml(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos);/g, (_, e: string) => ({ lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" })[e]!);
}

function walk(items: readonly BinderItem[], visit: (item: BinderItem) => void): void {
  for (const item of items) {
    visit(item);
    walk(item.children, visit);
  }
}

const TEXT_TYPES = new Set(['Text', 'Folder', 'DraftFolder', 'ResearchFolder', 'TrashFolder']);

/** Reads the project; refuses (ScrivenerReadError) what is not a Scrivener 3 project or has a damaged binder. */
export async function readProject(files: ProjectFiles, onProgress?: (fraction: number) => void): Promise<ScrivenerProject> {
  const scrivx = files.paths.find((p) => /^[^/]+\.scrivx$/i.test(p));
  if (!scrivx) throw new ScrivenerReadError(MESSAGES.notAProject);
  const bytes = await files.read(scrivx);
  if (!bytes) throw new ScrivenerReadError(MESSAGES.notAProject);
  const binder = readBinder(decoder.decode(bytes));
  const present = new Set(files.paths);
  const snapshotFiles = new Map<string, string[]>();
  for (const p of files.paths) {
    const m = /^Snapshots\/([^/]+)\.snapshots\/([^/]+\.rtf)$/i.exec(p);
    if (m) snapshotFiles.set(m[1]!, [...(snapshotFiles.get(m[1]!) ?? []), m[2]!]);
  }

  const items: BinderItem[] = [];
  walk(binder.items, (item) => {
    if (TEXT_TYPES.has(item.type) && /^[A-Za-z0-9-]+$/.test(item.uuid)) items.push(item);
  });
  const documents: Record<string, ProjectDocument> = {};
  const seen = new Set<string>();
  const readText = async (path: string) => {
    const data = present.has(path) ? await files.read(path) : null;
    return data;
  };
  for (const [index, item] of items.entries()) {
    if (seen.has(item.uuid)) continue;
    seen.add(item.uuid);
    const dir = `Files/Data/${item.uuid}/`;
    const content = await readText(`${dir}content.rtf`);
    const synopsis = await readText(`${dir}synopsis.txt`);
    const notes = await readText(`${dir}notes.rtf`);
    const comments = await readText(`${dir}content.comments`);
    const snapshotNames = snapshotFiles.get(item.uuid) ?? [];
    const snapshotIndex = snapshotNames.length ? await readText(`Snapshots/${item.uuid}.snapshots/index.xml`) : null;
    if (!content && !synopsis && !notes && snapshotNames.length === 0) {
      // A text with no file (missing, or never typed into: Scrivener writes none until then) is
      // made as an empty chapter and listed.
      if (item.type === 'Text') documents[item.uuid] = { paragraphs: [], synopsis: '', notes: '', snapshots: [], missing: true, comments: 0, leftOut: serializable(emptyRtfLeftOut()) };
      continue;
    }
    const text = content ? readRtf(content) : { paragraphs: [], leftOut: emptyRtfLeftOut() };
    const noteText = notes ? readRtf(notes) : null;
    documents[item.uuid] = {
      paragraphs: text.paragraphs,
      synopsis: synopsis ? decoder.decode(synopsis).replace(/^\uFEFF/, '').trim() : '',
      notes: noteText ? noteText.paragraphs.join('\n') : '',
      snapshots: snapshotsOf(snapshotIndex ? decoder.decode(snapshotIndex) : null, snapshotNames),
      missing: false,
      comments: comments ? (decoder.decode(comments).match(/<Comment\b/g)?.length ?? 0) : 0,
      leftOut: serializable(text.leftOut),
    };
    if (onProgress && index % 20 === 0) onProgress(index / items.length);
  }
  return { name: files.name, binder, documents };
}

function serializable(leftOut: RtfLeftOut): SerializableRtfLeftOut {
  return { ...leftOut, unknown: [...leftOut.unknown].sort() };
}
