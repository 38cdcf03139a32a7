/**
 * Chapter markup as HTML for the clipboard (a copy or cut in the editor): <em> and <strong> for
 * the emphasis, <p> per paragraph, <br> per line break. A word processor pastes the emphasis, and
 * the editor's own paste reads it back (html-paste.ts), so cutting and pasting within a chapter keeps it.
 */
import { parseParagraph } from '@chronicler/schema';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/gu, (char) => ENTITIES[char]!);
}

function lineToHtml(line: string): string {
  return parseParagraph(line)
    .map((run) => {
      let html = escapeHtml(run.text);
      if (run.italic) html = `<em>${html}</em>`;
      if (run.bold) html = `<strong>${html}</strong>`;
      return html;
    })
    .join('');
}

export function markupToHtml(text: string): string {
  const paragraphs: string[] = [];
  let lines: string[] = [];
  const close = () => {
    if (lines.length > 0) paragraphs.push(`<p>${lines.join('<br>')}</p>`);
    lines = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '') close();
    else lines.push(lineToHtml(line));
  }
  close();
  return paragraphs.join('');
}
