/**
 * What a paragraph's script says about how to print it, for every format: its direction (the
 * Unicode bidi algorithm's paragraph level, from its first strong character) and, for Chinese,
 * Japanese and Korean, its language (which forms of shared Han characters a reader should use).
 */
import bidiFactory from 'bidi-js';

let bidi: ReturnType<typeof bidiFactory> | null = null;
/** The bidi algorithm (its tables are built on first use, not when a format module loads). */
export function bidiAlgorithm(): ReturnType<typeof bidiFactory> {
  bidi ??= bidiFactory();
  return bidi;
}

/** Scripts written right to left; a paragraph with none of their letters is left to right, unasked. */
const RIGHT_TO_LEFT_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Adlam}\u200f\u202b\u202e\u2067]/u;

/** 'rtl' when the paragraph's first strong character is right-to-left (rule P2 of the bidi algorithm). */
export function paragraphDirection(text: string): 'ltr' | 'rtl' {
  if (!RIGHT_TO_LEFT_SCRIPT.test(text)) return 'ltr';
  return (bidiAlgorithm().getEmbeddingLevels(text).paragraphs[0]?.level ?? 0) % 2 === 1 ? 'rtl' : 'ltr';
}

const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HANGUL = /\p{Script=Hangul}/u;
const HAN = /\p{Script=Han}/u;

/** The CJK language a paragraph is in: kana means Japanese, hangul Korean, Han alone Chinese; null for none. */
export function cjkLanguage(text: string): 'ja' | 'ko' | 'zh' | null {
  if (KANA.test(text)) return 'ja';
  if (HANGUL.test(text)) return 'ko';
  if (HAN.test(text)) return 'zh';
  return null;
}
