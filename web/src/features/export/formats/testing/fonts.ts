/** The PDF fonts read from their npm packages on disk, as the export worker fetches them in the browser. */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { FONT_FILES, type FontFace, type FontSource } from '../pdf';

const require = createRequire(import.meta.url);

/** Every face read from disk; `faces` records which were asked for (the on-need ones only when needed). */
export function diskFonts(faces: FontFace[] = []): FontSource {
  return async (face) => {
    faces.push(face);
    return new Uint8Array(await readFile(require.resolve(FONT_FILES[face])));
  };
}
