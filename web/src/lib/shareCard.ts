/**
 * A milestone's share card (the plan table's `sharingMilestones`): an image drawn in the browser
 * with the book's title, the figure and the app's mark, in the current theme's colours — then
 * handed to the device's share sheet (Web Share with files) or downloaded. It is made from the
 * words passed in (a title, a figure, a line); no manuscript text is read, and nothing is sent.
 */
import bookMarkUrl from '@/assets/brand-book.svg';

export const SHARE_CARD_WIDTH = 1200;
export const SHARE_CARD_HEIGHT = 630;

export interface ShareCardContent {
  /** The small line above the figure: "Book completed", "Achievement earned". */
  kicker: string;
  /** The figure: "85,000 words", "First Chapter". */
  figure: string;
  /** The book (or series) it belongs to; may be empty. */
  title: string;
  /** A last line: a date, a description. */
  footer: string;
}

export interface ShareCardColors {
  background: string;
  text: string;
  dimmed: string;
  accent: string;
  brandFrom: string;
  brandTo: string;
  fontFamily: string;
}

const FALLBACK: ShareCardColors = {
  background: '#ffffff',
  text: '#1a1b1e',
  dimmed: '#5c5f66',
  accent: '#3b3fc4',
  brandFrom: '#3b3fc4',
  brandTo: '#7a3cd8',
  fontFamily: 'system-ui, sans-serif',
};

/** The current theme's colours, read from the CSS variables the theme sets (features/theme/themes.ts). */
export function themeShareColors(element: HTMLElement = document.body): ShareCardColors {
  const style = getComputedStyle(element);
  const read = (name: string, fallback: string) => style.getPropertyValue(name).trim() || fallback;
  const gradient = read('--app-brand-gradient', '');
  const stops = gradient.match(/#[0-9a-f]{3,8}|rgba?\([^)]*\)/gi) ?? [];
  return {
    background: read('--mantine-color-body', FALLBACK.background),
    text: read('--mantine-color-text', FALLBACK.text),
    dimmed: read('--mantine-color-dimmed', FALLBACK.dimmed),
    accent: read('--mantine-primary-color-filled', FALLBACK.accent),
    brandFrom: stops[0] ?? FALLBACK.brandFrom,
    brandTo: stops[1] ?? stops[0] ?? FALLBACK.brandTo,
    fontFamily: style.fontFamily || FALLBACK.fontFamily,
  };
}

/** Lines of `text` no wider than `width` at the context's font, at most `maxLines` (the last one ends in "…"). */
export function wrapText(ctx: Pick<CanvasRenderingContext2D, 'measureText'>, text: string, width: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width <= width || line === '') line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1]!;
  while (last.length > 1 && ctx.measureText(`${last}…`).width > width) last = last.slice(0, -1);
  kept[maxLines - 1] = `${last.trimEnd()}…`;
  return kept;
}

let markImage: Promise<HTMLImageElement | null> | null = null;

/** The book of the app's mark (the same drawing as the app icon), loaded once; null when it cannot be. */
function loadMark(): Promise<HTMLImageElement | null> {
  markImage ??= new Promise((resolve) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => resolve(null);
    image.src = bookMarkUrl;
  });
  return markImage;
}

function roundedRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

/** Draws the card on `canvas` (resized to 1200 × 630, the size link previews use). */
export async function drawShareCard(canvas: HTMLCanvasElement, content: ShareCardContent, colors: ShareCardColors): Promise<void> {
  canvas.width = SHARE_CARD_WIDTH;
  canvas.height = SHARE_CARD_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw images.');
  const font = (weight: number, size: number) => `${weight} ${size}px ${colors.fontFamily}`;
  const pad = 72;
  const inner = SHARE_CARD_WIDTH - pad * 2;

  ctx.fillStyle = colors.background;
  ctx.fillRect(0, 0, SHARE_CARD_WIDTH, SHARE_CARD_HEIGHT);
  // The brand band along the left edge.
  const band = ctx.createLinearGradient(0, 0, 0, SHARE_CARD_HEIGHT);
  band.addColorStop(0, colors.brandFrom);
  band.addColorStop(1, colors.brandTo);
  ctx.fillStyle = band;
  ctx.fillRect(0, 0, 16, SHARE_CARD_HEIGHT);

  // The mark: the book on the brand gradient, and the name.
  const markSize = 64;
  const mark = ctx.createLinearGradient(pad, pad, pad + markSize, pad + markSize);
  mark.addColorStop(0, colors.brandFrom);
  mark.addColorStop(1, colors.brandTo);
  ctx.fillStyle = mark;
  roundedRect(ctx, pad, pad - 16, markSize, markSize, 15);
  ctx.fill();
  const book = await loadMark();
  if (book) ctx.drawImage(book, pad, pad - 16, markSize, markSize);
  ctx.fillStyle = colors.text;
  ctx.font = font(700, 34);
  ctx.textBaseline = 'middle';
  ctx.fillText('Chronicler', pad + markSize + 20, pad + markSize / 2 - 16);

  ctx.textBaseline = 'alphabetic';
  let y = 250;
  ctx.fillStyle = colors.accent;
  ctx.font = font(700, 30);
  ctx.fillText(content.kicker.toUpperCase(), pad, y);
  y += 96;
  ctx.fillStyle = colors.text;
  ctx.font = font(800, 84);
  for (const line of wrapText(ctx, content.figure, inner, 1)) ctx.fillText(line, pad, y);
  if (content.title) {
    ctx.font = font(600, 44);
    for (const line of wrapText(ctx, content.title, inner, 2)) {
      y += 64;
      ctx.fillText(line, pad, y);
    }
  }
  ctx.fillStyle = colors.dimmed;
  ctx.font = font(400, 28);
  for (const line of wrapText(ctx, content.footer, inner, 1)) ctx.fillText(line, pad, SHARE_CARD_HEIGHT - pad + 10);
}

export function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The image could not be made.'))), 'image/png');
  });
}

/** A file name from the card's words: "chronicler-first-chapter.png". */
export function shareFileName(content: ShareCardContent): string {
  const slug = `${content.figure} ${content.title}`
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 60);
  return `chronicler-${slug || 'milestone'}.png`;
}

/** Whether the device's share sheet takes image files (phones, some desktops). */
export function canShareFiles(file: File): boolean {
  return typeof navigator.share === 'function' && typeof navigator.canShare === 'function' && navigator.canShare({ files: [file] });
}

/** Saves the image through a download link. */
export function downloadFile(file: File): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
