/**
 * One export from the rows read on the device: the manuscript (or the series bible) in the asked
 * format, as bytes with a file name and a media type. Runs in the export worker (and in tests).
 */
import {
  type Book,
  type Chapter,
  type Character,
  type CharacterRelationship,
  type ExportFormat,
  type ExportProfile,
  type Location,
  type Series,
  type TimelineEvent,
  type WorldEntry,
  EXPORT_FORMAT_EXTENSIONS,
  EXPORT_FORMAT_MIME,
  buildManuscript,
  buildSeriesBible,
  manuscriptToMarkdown,
  manuscriptToPlainText,
} from '@chronicler/schema';
import { manuscriptToDocx } from './docx';
import { manuscriptToEpub } from './epub';
import { type FontSource, manuscriptToPdf } from './pdf';
import type { Progress } from './progress';

export interface ManuscriptRequest {
  what: 'manuscript';
  series: Series;
  author: string;
  books: Book[];
  chapters: Chapter[];
  profile: ExportProfile;
}

export interface BibleRequest {
  what: 'bible';
  series: Series;
  author: string;
  characters: Character[];
  relationships: CharacterRelationship[];
  locations: Location[];
  events: TimelineEvent[];
  /** Cultures, magic systems, species, technologies, factions (docs/decisions/0020-world-entries.md). */
  worldEntries?: WorldEntry[];
  /** For the chapters' synopses and notes. */
  books?: Book[];
  chapters?: Chapter[];
  profile: ExportProfile;
}

export type ExportRequest = ManuscriptRequest | BibleRequest;

export interface ExportFile {
  bytes: Uint8Array;
  fileName: string;
  mime: string;
  /** What the author should know about how the text came out (e.g. emoji in black and white); empty when it is as written. */
  notices: string[];
}

export type { FontFace, FontSource } from './pdf';

/** A file name from a title: letters, digits, spaces and dashes kept, the rest dropped. */
export function fileNameFor(title: string, format: ExportFormat): string {
  // eslint-disable-next-line no-control-regex -- control codes are exactly what is removed here
  const base = title.normalize('NFC').replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '').replace(/\s+/g, ' ').trim().slice(0, 120) || 'manuscript';
  return `${base}.${EXPORT_FORMAT_EXTENSIONS[format]}`;
}

const encoder = new TextEncoder();

export async function renderExport(request: ExportRequest, fonts: FontSource, progress: Progress = () => {}): Promise<ExportFile> {
  const { profile, series } = request;
  let manuscript;
  if (request.what === 'manuscript') {
    const wanted = profile.bookIds === null ? null : new Set(profile.bookIds);
    const books = request.books.filter((b) => wanted === null || wanted.has(b.id));
    const live = books.filter((b) => b.deletedAt === null);
    manuscript = buildManuscript({
      series,
      author: request.author,
      books,
      chapters: request.chapters,
      // A one-book export is that book's manuscript.
      ...(live.length === 1 && request.books.filter((b) => b.deletedAt === null).length > 1 ? { title: live[0]!.title } : {}),
    });
  } else {
    manuscript = buildSeriesBible({ ...request, series });
  }
  progress(0.02);
  const fileName = fileNameFor(manuscript.title, profile.format);
  const mime = EXPORT_FORMAT_MIME[profile.format];
  let bytes: Uint8Array;
  let notices: string[] = [];
  switch (profile.format) {
    case 'markdown':
      bytes = encoder.encode(manuscriptToMarkdown(manuscript, { sceneBreak: profile.sceneBreak }));
      break;
    case 'txt':
      bytes = encoder.encode(manuscriptToPlainText(manuscript, { sceneBreak: profile.sceneBreak }));
      break;
    case 'docx':
      bytes = await manuscriptToDocx(manuscript, profile, progress);
      break;
    case 'epub':
      bytes = manuscriptToEpub(manuscript, profile, { identifier: series.id, modified: new Date() }, progress);
      break;
    case 'pdf':
      ({ bytes, notices } = await manuscriptToPdf(manuscript, profile, fonts, progress));
      break;
  }
  progress(1);
  return { bytes, fileName, mime, notices };
}
