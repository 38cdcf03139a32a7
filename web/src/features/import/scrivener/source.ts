/**
 * The files of a chosen Scrivener project, wherever they came from: a folder (the directory
 * picker's files, each with its relative path) or a .zip of it. Sizes are checked before anything
 * is read, paths that climb out of the project are refused, and only the files the import reads
 * (binder, texts, synopses, notes, snapshot indexes) are ever opened
 * (docs/decisions/0013-scrivener-import.md).
 */
import { unzipSync } from 'fflate';
import { MESSAGES, ScrivenerReadError } from './messages';

export { MESSAGES, ScrivenerReadError } from './messages';

/** A folder larger than this is refused before any of it is read (research media included). */
export const MAX_FOLDER_BYTES = 2 * 1024 ** 3 - 1;
/** The text the import reads (binder, RTF, synopses) may not exceed this. */
export const MAX_TEXT_BYTES = 256 * 1024 ** 2;

/** A chosen file with the path it had in the picked folder (`webkitRelativePath`). */
export interface PickedFile {
  path: string;
  file: Blob;
}

/** The project's files by path relative to the .scriv folder, `/`-separated. */
export interface ProjectFiles {
  /** The .scriv folder's name without the extension (the project's title). */
  name: string;
  /** Every file path in the project, read or not (media are listed, never opened). */
  paths: string[];
  read(path: string): Promise<Uint8Array | null>;
}

/** Files the import opens; everything else (PDFs, images, settings) only has its size counted. */
export function isReadPath(path: string): boolean {
  return /\.scrivx$/i.test(path) || /^Files\/(Data\/[^/]+\/(content\.rtf|notes\.rtf|synopsis\.txt|content\.comments)|version\.txt|Docs\/[^/]+\.(rtf|txt))$/i.test(path) || /^Snapshots\/[^/]+\.snapshots\/(index\.xml|[^/]+\.rtf)$/i.test(path);
}

function normalise(path: string): string | null {
  const parts = path.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
  if (parts.some((p) => p === '..') || /^[a-zA-Z]:/.test(parts[0] ?? '') || path.startsWith('/')) return null;
  return parts.join('/');
}

/** The project's root: the folder holding the shallowest .scrivx (a folder picked above the .scriv works too). */
function projectRoot(paths: readonly string[]): { root: string; scrivx: string } | null {
  let best: string | null = null;
  for (const p of paths) {
    if (!/\.scrivx$/i.test(p) || p.split('/').some((part) => part.startsWith('.') || part === '__MACOSX')) continue;
    if (best === null || p.split('/').length < best.split('/').length) best = p;
  }
  if (best === null) return null;
  const slash = best.lastIndexOf('/');
  return { root: slash < 0 ? '' : best.slice(0, slash + 1), scrivx: best };
}

function projectName(root: string, scrivx: string): string {
  const folder = root.replace(/\/$/, '').split('/').pop() ?? '';
  const fromFolder = folder.replace(/\.scriv$/i, '').trim();
  return fromFolder || scrivx.split('/').pop()!.replace(/\.scrivx$/i, '').trim() || 'Scrivener project';
}

function hasScrivener2Docs(paths: readonly string[], root: string): boolean {
  return paths.some((p) => p.startsWith(`${root}Files/Docs/`)) && !paths.some((p) => p.startsWith(`${root}Files/Data/`));
}

/** A folder chosen with the directory picker. */
export function folderSource(picked: readonly PickedFile[]): ProjectFiles {
  let total = 0;
  const byPath = new Map<string, Blob>();
  for (const { path, file } of picked) {
    total += file.size;
    const clean = normalise(path);
    if (clean !== null) byPath.set(clean, file);
  }
  if (total > MAX_FOLDER_BYTES) throw new ScrivenerReadError(MESSAGES.tooLarge);
  const found = projectRoot([...byPath.keys()]);
  if (!found) {
    if ([...byPath.keys()].some((p) => /(^|\/)Files\/Docs\//.test(p))) throw new ScrivenerReadError(MESSAGES.scrivener2);
    throw new ScrivenerReadError(MESSAGES.notAProject);
  }
  const { root, scrivx } = found;
  const inProject = [...byPath.keys()].filter((p) => p.startsWith(root)).map((p) => p.slice(root.length));
  let text = 0;
  for (const p of inProject) if (isReadPath(p)) text += byPath.get(root + p)!.size;
  if (text > MAX_TEXT_BYTES) throw new ScrivenerReadError(MESSAGES.tooMuchText);
  if (hasScrivener2Docs([...byPath.keys()], root)) throw new ScrivenerReadError(MESSAGES.scrivener2);
  return {
    name: projectName(root, scrivx),
    paths: inProject,
    async read(path) {
      const blob = byPath.get(root + path);
      return blob ? new Uint8Array(await blob.arrayBuffer()) : null;
    },
  };
}

/** A .zip of the project: every entry's path checked and every size counted before one is inflated. */
export function zipSource(bytes: Uint8Array): ProjectFiles {
  if (bytes.length > MAX_FOLDER_BYTES) throw new ScrivenerReadError(MESSAGES.tooLarge);
  const names: string[] = [];
  let unsafe = false;
  let total = 0;
  let text = 0;
  const wanted = (name: string) => isReadPath(name.replace(/^.*?\.scriv\//i, '')) || /\.scrivx$/i.test(name);
  let files: Record<string, Uint8Array>;
  try {
    // The filter sees each entry's name and inflated size before anything is inflated.
    files = unzipSync(bytes, {
      filter(entry) {
        if (entry.name.endsWith('/')) return false;
        const clean = normalise(entry.name);
        if (clean === null || entry.name.split(/[\\/]/).includes('..')) {
          unsafe = true;
          return false;
        }
        names.push(clean);
        total += entry.originalSize;
        if (!wanted(clean)) return false;
        text += entry.originalSize;
        return !unsafe && total <= MAX_FOLDER_BYTES && text <= MAX_TEXT_BYTES;
      },
    });
  } catch {
    throw new ScrivenerReadError(MESSAGES.unreadableZip);
  }
  if (unsafe) throw new ScrivenerReadError(MESSAGES.unsafeZip);
  if (total > MAX_FOLDER_BYTES) throw new ScrivenerReadError(MESSAGES.tooLarge);
  if (text > MAX_TEXT_BYTES) throw new ScrivenerReadError(MESSAGES.tooMuchText);
  const byPath = new Map(Object.entries(files).map(([name, data]) => [normalise(name)!, data]));
  const found = projectRoot(names);
  if (!found) {
    if (names.some((p) => /(^|\/)Files\/Docs\//.test(p))) throw new ScrivenerReadError(MESSAGES.scrivener2);
    throw new ScrivenerReadError(MESSAGES.notAProject);
  }
  const { root, scrivx } = found;
  if (hasScrivener2Docs(names, root)) throw new ScrivenerReadError(MESSAGES.scrivener2);
  return {
    name: projectName(root, scrivx),
    paths: names.filter((p) => p.startsWith(root)).map((p) => p.slice(root.length)),
    read: (path) => Promise.resolve(byPath.get(root + path) ?? null),
  };
}
