/**
 * A two-book series written in many scripts, with emphasis: what an author writing in any language
 * expects every export to keep. Each paragraph's visible text is listed (`PARAGRAPHS`) with the
 * words it emphasises, for reading exports back.
 */
import type { Chapter } from '@chronicler/schema';
import { books, series } from './fixtures';

export { books, series };

export interface Sample {
  /** The script, as a test names it. */
  script: string;
  /** As typed, with markup. */
  source: string;
  /** What the reader reads. */
  visible: string;
  italic?: string;
  bold?: string;
  rtl?: boolean;
}

export const SAMPLES: Sample[] = [
  { script: 'Latin with accents', source: 'Ça *déjà* vu — **Ærøskøbing**, Łódź, Dvořák, Việt Nam, Ağrı.', visible: 'Ça déjà vu — Ærøskøbing, Łódź, Dvořák, Việt Nam, Ağrı.', italic: 'déjà', bold: 'Ærøskøbing' },
  { script: 'lone asterisk', source: 'Two * three is six, and *this* stays — 5 * 5.', visible: 'Two * three is six, and this stays — 5 * 5.', italic: 'this' },
  { script: 'Greek', source: 'Η *θάλασσα* ήταν **ήρεμη** το πρωί.', visible: 'Η θάλασσα ήταν ήρεμη το πρωί.', italic: 'θάλασσα', bold: 'ήρεμη' },
  { script: 'Cyrillic', source: 'Она сказала: «***Никогда***». Ёлка стояла у окна.', visible: 'Она сказала: «Никогда». Ёлка стояла у окна.', italic: 'Никогда', bold: 'Никогда' },
  { script: 'Chinese', source: '她走进了*古老*的图书馆，书架上落满了灰尘。窗外下着雨，街道上空无一人，只有远处的钟声一下一下地敲着，仿佛在数着这座城市的心跳。', visible: '她走进了古老的图书馆，书架上落满了灰尘。窗外下着雨，街道上空无一人，只有远处的钟声一下一下地敲着，仿佛在数着这座城市的心跳。', italic: '古老' },
  { script: 'Japanese', source: '彼女は**静かに**扉を開けた。「まだ早い」と猫が言った。', visible: '彼女は静かに扉を開けた。「まだ早い」と猫が言った。', bold: '静かに' },
  { script: 'Korean', source: '그녀는 *조용히* 문을 열었다. 바다는 잔잔했다.', visible: '그녀는 조용히 문을 열었다. 바다는 잔잔했다.', italic: '조용히' },
  { script: 'Arabic', source: 'قالت *الريح* للبحر: لا تنم.', visible: 'قالت الريح للبحر: لا تنم.', italic: 'الريح', rtl: true },
  { script: 'Hebrew', source: 'הים היה **שקט** בבוקר.', visible: 'הים היה שקט בבוקר.', bold: 'שקט', rtl: true },
  { script: 'emoji', source: 'She laughed 😀 and waved 👋🏽 at the 🚢.', visible: 'She laughed 😀 and waved 👋🏽 at the 🚢.' },
];

const at = '2026-01-01T00:00:00.000Z';
const row = { rev: 1, createdAt: at, updatedAt: at, deletedAt: null };

function chapter(n: number, bookId: string, position: number, title: string, samples: Sample[]): Chapter {
  const content = samples.map((s) => s.source).join('\n');
  return { ...row, id: `01930000-0000-7000-8000-0000000002c${n}`, seriesId: series.id, bookId, title, content, position, wordCount: content.split(/\s+/).filter(Boolean).length, status: 'draft' };
}

/** Book 1 (The Salt Crown): Latin, Greek, Cyrillic, CJK; book 2 (The Iron Tide): the right-to-left scripts and emoji. */
export const chapters: Chapter[] = [
  chapter(1, books[1]!.id, 1, 'Ωκεανός — Океан', SAMPLES.slice(0, 4)),
  chapter(2, books[1]!.id, 2, '海 · 海 · 바다', SAMPLES.slice(4, 7)),
  chapter(3, books[0]!.id, 1, 'البحر — הים', SAMPLES.slice(7)),
];
