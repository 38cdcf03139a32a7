/**
 * A Word document as import blocks with its emphasis (docs/decisions/0009-chapter-markup.md):
 * mammoth turns it into HTML, and this walks that HTML into runs (italic, bold) written as chapter
 * markup. What cannot come in (images, tables, footnotes, endnotes, comments, page headers and
 * footers, elements mammoth does not read) is counted, to be listed before anything is written
 * (docs/web.md#exports-and-imports).
 */
import { unzipSync } from 'fflate';
import { type ImportBlock, type LeftOut, type LeftOutKind, type Run, appendRun, serializeRuns } from '@chronicler/schema';

export interface DocxContent {
  blocks: ImportBlock[];
  leftOut: LeftOut;
}

const HEADING = /^H[1-6]$/;
/** mammoth's ids for notes and comments, and for the links that point at them from the text. */
const NOTE_ID = /^(footnote|endnote|comment)-/;
const NOTE_REFERENCE = /^#(footnote|endnote|comment)-/;

/** Runs of an element's text: `em`/`i` italic, `strong`/`b` bold; note and comment marks, images and nested lists left out. */
function runsOf(node: Node, style: { italic: boolean; bold: boolean }, out: Run[]): void {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) {
      appendRun(out, { text: child.textContent ?? '', ...style });
      continue;
    }
    if (!(child instanceof Element)) continue;
    const tag = child.tagName;
    if (tag === 'BR') appendRun(out, { text: ' ', ...style });
    else if (tag === 'IMG' || tag === 'UL' || tag === 'OL' || tag === 'TABLE') continue;
    else if (tag === 'SUP' && child.querySelector('a[href^="#footnote-"], a[href^="#endnote-"], a[href^="#comment-"]')) continue;
    else if (tag === 'A' && NOTE_REFERENCE.test(child.getAttribute('href') ?? '')) continue;
    else runsOf(child, { italic: style.italic || tag === 'EM' || tag === 'I', bold: style.bold || tag === 'STRONG' || tag === 'B' }, out);
  }
}

/** Runs with Word's spacing as HTML reads it: any whitespace one space, none at the ends. */
function collapsed(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  let afterSpace = true;
  for (const run of runs) {
    let text = run.text.replace(/\s+/g, ' ');
    if (afterSpace) text = text.replace(/^ /, '');
    if (text === '') continue;
    afterSpace = text.endsWith(' ');
    appendRun(out, { ...run, text });
  }
  const last = out[out.length - 1];
  if (last?.text.endsWith(' ')) {
    out[out.length - 1] = { ...last, text: last.text.slice(0, -1) };
    if (out[out.length - 1]!.text === '') out.pop();
  }
  return out;
}

/** Whether an element belongs to something left out as a whole (a table, a note or comment's own text). */
function insideLeftOut(el: Element): boolean {
  if (el.closest('table')) return true;
  for (let at: Element | null = el; at; at = at.parentElement) if (NOTE_ID.test(at.id) || at.tagName === 'DL') return true;
  return false;
}

const count = (leftOut: LeftOut, kind: LeftOutKind, n = 1) => {
  if (n > 0) leftOut[kind] = (leftOut[kind] ?? 0) + n;
};

/** Page headers and footers that hold text (mammoth reads the body only). */
function countHeadersAndFooters(bytes: ArrayBuffer, leftOut: LeftOut): void {
  const parts = unzipSync(new Uint8Array(bytes), { filter: (f) => /^word\/(header|footer)\d*\.xml$/.test(f.name) });
  const decoder = new TextDecoder();
  for (const [name, xml] of Object.entries(parts)) {
    if (/<w:t(?:\s[^>]*)?>[^<]*\S/.test(decoder.decode(xml))) count(leftOut, name.startsWith('word/header') ? 'header' : 'footer');
  }
}

export async function readDocx(bytes: ArrayBuffer): Promise<DocxContent> {
  const mammoth = (await import('mammoth')).default;
  const leftOut: LeftOut = {};
  // The browser build of mammoth reads an ArrayBuffer; its Node build (what tests under jsdom
  // resolve) reads a Buffer.
  const NodeBuffer = (globalThis as { Buffer?: { from(bytes: ArrayBuffer): unknown } }).Buffer;
  const input = NodeBuffer ? ({ buffer: NodeBuffer.from(bytes) } as unknown as { arrayBuffer: ArrayBuffer }) : { arrayBuffer: bytes };
  const { value: html, messages } = await mammoth.convertToHtml(input, {
    // Images are counted, never read or embedded.
    convertImage: mammoth.images.imgElement(() => {
      count(leftOut, 'image');
      return Promise.resolve({ src: '' });
    }),
    // Comments come out as marks in the text and a list at the end, so they can be counted (and left out).
    styleMap: ['comment-reference => sup'],
  });
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  count(leftOut, 'table', Array.from(doc.querySelectorAll('table')).filter((table) => !table.parentElement?.closest('table')).length);
  count(leftOut, 'footnote', doc.querySelectorAll('li[id^="footnote-"]').length);
  count(leftOut, 'endnote', doc.querySelectorAll('li[id^="endnote-"]').length);
  count(leftOut, 'comment', doc.querySelectorAll('dt[id^="comment-"]').length);
  const ignored = new Set(messages.filter((m) => m.type === 'error' || m.message.startsWith('An unrecognised element was ignored')).map((m) => m.message));
  count(leftOut, 'other', ignored.size);
  countHeadersAndFooters(bytes, leftOut);

  const blocks: ImportBlock[] = [];
  for (const el of Array.from(doc.body.querySelectorAll('h1, h2, h3, h4, h5, h6, p, li'))) {
    // A paragraph inside a list item is read with the item.
    if (insideLeftOut(el) || (el.tagName === 'P' && el.closest('li'))) continue;
    const runs: Run[] = [];
    runsOf(el, { italic: false, bold: false }, runs);
    const line = collapsed(runs);
    if (HEADING.test(el.tagName)) blocks.push({ kind: 'heading', level: Number(el.tagName[1]), text: line.map((r) => r.text).join('') });
    else blocks.push({ kind: 'paragraph', text: serializeRuns(line) });
  }
  return { blocks, leftOut };
}
