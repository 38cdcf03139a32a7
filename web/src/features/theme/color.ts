/** Small colour helpers for the theme tables (hex in, hex out). */

function parse(hex: string): [number, number, number] {
  const v = hex.replace('#', '');
  const full = v.length === 3 ? v.replace(/./g, (c) => c + c) : v.slice(0, 6);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function hex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

export function luminance(color: string): number {
  const [r, g, b] = parse(color).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two colours (1–21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** `color` moved `amount` (0–1) of the way towards `target`. */
export function mix(color: string, target: string, amount: number): string {
  const a = parse(color);
  const b = parse(target);
  return hex([0, 1, 2].map((i) => a[i]! + (b[i]! - a[i]!) * amount) as [number, number, number]);
}

/**
 * `color`, darkened (towards black) or lightened (towards white) in small steps until it reaches
 * `ratio` against every background. Returns the colour unchanged when it already does.
 */
export function ensureContrast(color: string, backgrounds: readonly string[], ratio: number, towards: 'black' | 'white'): string {
  const target = towards === 'black' ? '#000000' : '#ffffff';
  let out = color;
  for (let step = 1; step <= 20 && backgrounds.some((bg) => contrast(out, bg) < ratio); step++) {
    out = mix(color, target, step / 20);
  }
  return out;
}
