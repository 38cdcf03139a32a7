/** What the author is told when a project cannot be read (docs/decisions/0013-scrivener-import.md). */
export class ScrivenerReadError extends Error {
  override readonly name = 'ScrivenerReadError';
}

export const MESSAGES = {
  notAProject: 'This is not a Scrivener project: no .scrivx file was found in it. Choose the project’s .scriv folder, or a .zip of it.',
  tooLarge: 'This project is too large to import here (more than 2 GB). Move large research files (videos, PDFs) out of it in Scrivener, then try again.',
  tooMuchText: 'This project holds more than 256 MB of text files, which is more than the import can read at once.',
  unsafeZip: 'This .zip holds paths that point outside the project (such as “../”), so it was not opened.',
  unreadableZip: 'This .zip could not be opened. Make a new .zip of the project’s .scriv folder and try again.',
  damaged: 'This Scrivener project could not be read: its binder (the .scrivx file) is damaged. Nothing was imported.',
  scrivener2: 'This project was made by Scrivener 1 or 2. Open it in Scrivener 3 once (it updates the project), then import it again.',
} as const;

