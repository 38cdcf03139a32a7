/**
 * Rich text pasted from a word processor or a web page (the clipboard's `text/html`) as chapter
 * markup: italic and bold kept, everything else dropped (docs/web.md#the-chapter-editor, "Paste";
 * docs/decisions/0009-chapter-markup.md). The HTML is parsed by DOMParser into an inert document —
 * no script runs, nothing loads, no node of it ever reaches the page — and only its text and the
 * two emphases are read: no attribute but `style` (for font-style and font-weight) is looked at, so
 * links keep their text and lose their address, and images, scripts, styles and Word's hidden
 * list markers (`mso-list:Ignore`) are left out.
 *
 * Blocks (p, div, li, headings, table cells…) become paragraphs separated by a blank line, as the
 * editor writes them; `<br>` is a line break. A large paste is read in slices, each a separate
 * task (htmlToMarkupInSlices), so a 2 MB paste never holds the page for one long task.
 */
import { appendRun, type Run, serializeRuns } from '@chronicler/schema';

/** Elements whose content is never text the author pasted. */
const DROPPED = new Set([
  'head', 'title', 'meta', 'link', 'style', 'script', 'noscript', 'template', 'img', 'picture', 'svg', 'math', 'canvas',
  'video', 'audio', 'iframe', 'object', 'embed', 'input', 'select', 'button', 'textarea', 'xml', 'v:shape', 'v:imagedata',
]);

/** Elements that start and end a paragraph. */
const BLOCKS = new Set([
  'p', 'div', 'li', 'ul', 'ol', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'pre', 'section', 'article',
  'header', 'footer', 'aside', 'nav', 'main', 'figure', 'figcaption', 'address', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'td',
  'th', 'caption', 'hr', 'details', 'summary', 'center',
]);

const ITALIC_TAGS = new Set(['i', 'em', 'cite', 'dfn', 'var']);
const BOLD_TAGS = new Set(['b', 'strong']);
/** Word's hidden parts: list bullets drawn by the list (mso-list:Ignore) and hidden text. */
const WORD_HIDDEN = /mso-list:\s*ignore|mso-hide:\s*all/iu;

interface Style {
  readonly italic: boolean;
  readonly bold: boolean;
  /** Inside <pre>: line breaks in the text are line breaks. */
  readonly pre: boolean;
}

const PLAIN: Style = { italic: false, bold: false, pre: false };

/** The style inside `element`, or null when nothing inside it is text to keep. */
function styleInside(element: Element, outer: Style): Style | null {
  const tag = element.localName.toLowerCase();
  if (DROPPED.has(tag)) return null;
  const inline = (element as HTMLElement).style as CSSStyleDeclaration | undefined;
  const raw = element.getAttribute('style');
  if (inline?.display === 'none' || (raw !== null && WORD_HIDDEN.test(raw))) return null;
  let italic = outer.italic || ITALIC_TAGS.has(tag);
  let bold = outer.bold || BOLD_TAGS.has(tag);
  // An element's own style wins over its tag: Google Docs wraps a whole paste in <b style="font-weight:normal">.
  const fontStyle = inline?.fontStyle ?? '';
  if (fontStyle !== '') italic = fontStyle === 'italic' || fontStyle.startsWith('oblique');
  const weight = inline?.fontWeight ?? '';
  if (weight !== '') bold = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600;
  return { italic, bold, pre: outer.pre || tag === 'pre' };
}

/** Gathers runs into paragraphs of markup. */
class MarkupWriter {
  private readonly out: string[] = [];
  private runs: Run[] = [];
  /** The break owed before the next paragraph: '' (none yet), '\n' (a <br>) or '\n\n' (a block). */
  private pendingBreak: '' | '\n' | '\n\n' = '';

  text(data: string, style: Style): void {
    if (style.pre) {
      data.split(/\r\n?|\n/u).forEach((line, i) => {
        if (i > 0) this.lineBreak();
        this.append(line, style);
      });
      return;
    }
    let text = data.replace(/[\t\n\r\f ]+/gu, ' ');
    const last = this.runs[this.runs.length - 1];
    if (text.startsWith(' ') && (last === undefined || /\s$/u.test(last.text))) text = text.slice(1);
    this.append(text, style);
  }

  private append(text: string, style: Style): void {
    appendRun(this.runs, { text, italic: style.italic, bold: style.bold });
  }

  lineBreak(): void {
    this.flush();
    this.pendingBreak = this.pendingBreak === '' ? '\n' : '\n\n';
  }

  blockBoundary(): void {
    this.flush();
    this.pendingBreak = '\n\n';
  }

  private flush(): void {
    const runs = this.runs;
    this.runs = [];
    if (runs.length === 0) return;
    const first = runs[0]!;
    runs[0] = { ...first, text: first.text.trimStart() };
    const last = runs[runs.length - 1]!;
    runs[runs.length - 1] = { ...last, text: last.text.trimEnd() };
    if (runs.every((run) => run.text.trim() === '')) return;
    if (this.out.length > 0) this.out.push(this.pendingBreak === '' ? '\n\n' : this.pendingBreak);
    this.out.push(serializeRuns(runs));
    this.pendingBreak = '';
  }

  finish(): string {
    this.flush();
    return this.out.join('');
  }
}

/** Walks one parsed document into the writer (no recursion: a deeply nested page cannot overflow the stack). */
function walk(root: Node, writer: MarkupWriter, base: Style): void {
  const stack: Array<{ node: Node; style: Style } | { end: 'block' }> = [{ node: root, style: base }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('end' in item) {
      writer.blockBoundary();
      continue;
    }
    const { node, style } = item;
    if (node.nodeType === 3) {
      writer.text((node as Text).data, style);
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    let inner = style;
    if (node.nodeType === 1) {
      const element = node as Element;
      const tag = element.localName.toLowerCase();
      if (tag === 'br') {
        writer.lineBreak();
        continue;
      }
      const styled = styleInside(element, style);
      if (styled === null) continue;
      inner = styled;
      if (BLOCKS.has(tag)) {
        writer.blockBoundary();
        stack.push({ end: 'block' });
      }
    }
    for (let child = node.lastChild; child !== null; child = child.previousSibling) stack.push({ node: child, style: inner });
  }
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

/** Pasted HTML as chapter markup, in one go (small pastes; the tests). */
export function htmlToMarkup(html: string): string {
  const writer = new MarkupWriter();
  walk(parse(html).body, writer, PLAIN);
  return writer.finish();
}

/** HTML longer than this is read in slices of about this size. */
export const SLICE_CHARS = 96 * 1024;

/** Where a slice may end: after a tag that closes a block or breaks a line (never inside a tag or a <style>). */
const SLICE_END = /<\/(?:p|div|li|h[1-6]|tr|table|blockquote|pre)\s*>|<br\s*\/?>/giu;

/**
 * The HTML cut into slices of about SLICE_CHARS, each ending after a block. The elements still open
 * at a cut (a wrapper of many paragraphs, such as Google Docs' <b> or a <div> in italic) are
 * opened again at the start of the next slice, with their style, so their emphasis carries over.
 */
export function sliceHtml(html: string): string[] {
  const slices: string[] = [];
  let start = 0;
  while (html.length - start > SLICE_CHARS) {
    SLICE_END.lastIndex = start + SLICE_CHARS;
    const found = SLICE_END.exec(html);
    if (found === null) break;
    const end = found.index + found[0].length;
    slices.push(html.slice(start, end));
    start = end;
  }
  slices.push(html.slice(start));
  return slices;
}

/**
 * Opening tags, with their styles, of the elements still open at the end of a parsed slice
 * (outermost first). The slice ends with the tag that closed a block (or a <br>): the deepest
 * element of that name on the document's last branch is the one it closed; its ancestors are open.
 */
function openAtEnd(doc: Document, slice: string): string {
  const closedBy = /<\/?([a-z0-9]+)[^>]*>$/iu.exec(slice)?.[1]?.toLowerCase();
  if (closedBy === undefined) return '';
  const branch: Element[] = [];
  for (let element = doc.body.lastElementChild; element !== null; element = element.lastElementChild) branch.push(element);
  let closed = branch.length;
  while (closed > 0 && branch[closed - 1]!.localName.toLowerCase() !== closedBy) closed--;
  let prefix = '';
  for (const element of branch.slice(0, Math.max(closed - 1, 0))) {
    const tag = element.localName.toLowerCase();
    if (!/^[a-z][a-z0-9]*$/u.test(tag)) break;
    const style = element.getAttribute('style');
    prefix += `<${tag}${style === null ? '' : ` style="${style.replace(/"/gu, '&quot;')}"`}>`;
  }
  return prefix;
}

/** Yields to the browser between slices (a macrotask, so input and painting come first). */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Pasted HTML as chapter markup, one slice per task: no long task however large the paste. */
export async function htmlToMarkupInSlices(html: string, yieldToPage: () => Promise<void> = nextTask): Promise<string> {
  const writer = new MarkupWriter();
  let carried = '';
  for (const slice of sliceHtml(html)) {
    const doc = parse(carried + slice);
    walk(doc.body, writer, PLAIN);
    carried = openAtEnd(doc, slice);
    await yieldToPage();
  }
  return writer.finish();
}
