// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- write-good ships no types, and packages that compile this file must see them too
/// <reference path="./vendor.d.ts" />
/**
 * The built-in prose analysis: deterministic, no network, no model, the same code on the
 * server and in the browser. Standard scores come from maintained libraries — `text-readability`
 * (Flesch reading ease and Flesch–Kincaid grade, a port of Python's textstat) and `write-good`
 * (passive voice and adverbs); see README.md for how they were chosen. The rest (sentence spread,
 * filter words, repeats, dialogue share, paragraph pacing, tense and point-of-view drift) are
 * counts over the segmentation in text.ts.
 *
 * Every finding carries its position (UTF-16 offsets) so the editor can highlight it.
 */
import { countWords, mayHoldMarkup, sourceRange, visibleTextMap } from '@chronicler/schema';
import { syllable } from 'syllable';
import writeGood from 'write-good';
import { emptyArray } from './arrays.ts';
import { type Paragraph, type Sentence, type Span, type Word, dialogueRanges, insideAny, paragraphsFrom, sentencesFrom } from './text.ts';
import { type SpanList, scanWords } from './tokens.ts';

export const FINDING_KINDS = [
  'passive', 'adverb', 'filterWord', 'repeat', 'longSentence', 'longParagraph', 'tenseDrift', 'povDrift',
] as const;
export type FindingKind = (typeof FINDING_KINDS)[number];

export const FINDING_LABELS: Readonly<Record<FindingKind, string>> = {
  passive: 'Passive voice',
  adverb: 'Adverb',
  filterWord: 'Filter word',
  repeat: 'Repeated close together',
  longSentence: 'Long sentence',
  longParagraph: 'Long paragraph',
  tenseDrift: 'Tense drift',
  povDrift: 'Point-of-view drift',
};

export interface Finding {
  kind: FindingKind;
  start: number;
  end: number;
  /** What was found, e.g. `"was opened" may be passive voice`. */
  message: string;
}

export interface ProseStats {
  characters: number;
  words: number;
  sentences: number;
  paragraphs: number;
  fleschReadingEase: number;
  fleschKincaidGrade: number;
  averageSentenceWords: number;
  /** Standard deviation of sentence length in words: low means monotonous rhythm. */
  sentenceWordsSpread: number;
  /** Share of the words inside quotation marks, 0..1. */
  dialogueShare: number;
  averageParagraphWords: number;
  /** The narration's dominant tense and person, when clear. */
  tense: 'past' | 'present' | 'mixed' | 'unknown';
  pointOfView: 'first' | 'third' | 'mixed' | 'unknown';
}

export interface ProseAnalysis {
  /** The spec's answer field (000 §3 "Analysis result: analysis (text)"): a readable summary. */
  analysis: string;
  stats: ProseStats;
  /** The longest sentences, longest first (at most 3). */
  longestSentences: Array<Span & { words: number }>;
  /** Sorted by position. At most MAX_FINDINGS_PER_KIND of each kind; `counts` has every one. */
  findings: Finding[];
  counts: Record<FindingKind, number>;
}

export const MAX_FINDINGS_PER_KIND = 200;
/** Sentences longer than this are flagged. */
export const LONG_SENTENCE_WORDS = 35;
export const LONG_PARAGRAPH_WORDS = 180;
/** A word used again within this many words is a close repeat. */
export const REPEAT_WINDOW_WORDS = 40;
/** A drift is flagged only when the narration clearly holds one tense/person (this share of marked sentences). */
const DOMINANT_SHARE = 0.75;
const MIN_MARKED_SENTENCES = 4;

// Words that put the reader at one remove from the character's experience (a common editing list).
const FILTER_WORDS = new Set([
  'saw', 'see', 'sees', 'seeing', 'heard', 'hear', 'hears', 'felt', 'feel', 'feels', 'noticed', 'notice', 'notices',
  'realized', 'realised', 'realize', 'realise', 'wondered', 'wonder', 'seemed', 'seem', 'seems', 'watched', 'watch',
  'thought', 'knew', 'decided', 'looked',
]);

// Function words never reported as repeats.
const COMMON = new Set(
  ('the a an and or but if then than that this these those there their they them he she him her his hers its it ' +
    'was were is are am be been being had has have did does do not no nor for from with without into onto upon ' +
    'of on in at by to as so too very just what which who whom whose when where while why how all any each ' +
    'some such only own same other our ours your yours you we us me my mine i said says say would could should ' +
    'will shall can may might must about over under again back down up out off like through more most')
    .split(' '),
);

const PAST = /\b(was|were|had|did|wasn't|weren't|hadn't|didn't)\b/i;
/**
 * Past-tense verbs of plain narration ("Mara walked to the harbour"), which has few of PAST's
 * auxiliaries. Simple pasts that are never participles mark the past like PAST; -ed words (5+
 * letters, not -eed: "speed") and pasts that are also participles ("found", "held") mark it
 * weakly: beside a present auxiliary ("the inn is closed", "she has found it") the sentence is
 * in the present.
 */
const SIMPLE_PAST = /^(?:went|came|saw|took|knew|gave|ran|began|fell|spoke|wrote|rose|drew|threw|woke|wore|ate|drank|sang|broke|chose|drove|flew|froze|grew|hid|rode|shook|stole|swore|tore)$/;
const PAST_OR_PARTICIPLE = /^(?:[a-z]{3,}(?<!e)ed|said|made|found|told|felt|left|held|kept|brought|heard|met|meant|sent|spent|built|lost|won|caught|fought|sought|taught|bought|sat|stood|thought|slept|knelt|struck)$/;
/** -ed words that are not verbs in the past. */
const NOT_PAST = new Set(['hundred', 'sacred', 'naked', 'wicked', 'beloved', 'rugged', 'ragged', 'crooked', 'kindred', 'hatred', 'wretched', 'jagged', 'learned', 'aged', 'blessed']);
const PRESENT = /\b(is|are|am|has|does|isn't|aren't|hasn't|doesn't)\b/i;
const FIRST_PERSON = /\b(I|me|my|mine|myself)\b/;
const THIRD_PERSON = /\b(he|she|him|her|his|hers|himself|herself)\b/i;

function round(n: number, digits = 1): number {
  const p = 10 ** digits;
  return Math.round(n * p) / p;
}

/**
 * Counts a finding of `kind`; true while the list still takes that kind. Callers build the finding
 * (and its message) only then: the bench chapter has 2,791 close repeats, of which 200 are listed.
 */
function counted(counts: Record<FindingKind, number>, kind: FindingKind): boolean {
  return ++counts[kind] <= MAX_FINDINGS_PER_KIND;
}

function emptyCounts(): Record<FindingKind, number> {
  return Object.fromEntries(FINDING_KINDS.map((k) => [k, 0])) as Record<FindingKind, number>;
}

const WRITE_GOOD_CHECKS = { passive: false, adverb: false, weasel: false, illusion: false, so: false, thereIs: false, tooWordy: false, cliches: false, eprime: false } as const;

/**
 * What write-good's passive and adverb checks make of each distinct \w run (tokens.ts), in lower case,
 * asked of the library itself: one call per question over all the distinct runs, one per line,
 * each line ended by a full stop so that no match reaches the next. An adverb: the run matched
 * whole. An auxiliary: "<run> opened" matched whole. A participle: "was <run>" matched whole
 * (not "indeed", which the library drops after matching it: the same as no match, since "indeed"
 * is no auxiliary either).
 */
function runClasses(keys: readonly string[]): { adverb: Uint8Array; auxiliary: Uint8Array; participle: Uint8Array } {
  const ask = (check: 'passive' | 'adverb', line: (key: string) => string): Uint8Array => {
    const out = new Uint8Array(keys.length);
    const idAt = new Map<number, number>();
    const lines: string[] = [];
    let at = 0;
    keys.forEach((key, id) => {
      const l = line(key);
      idAt.set(at, id);
      lines.push(l);
      at += l.length + 2;
    });
    for (const hit of writeGood(lines.join('.\n'), { ...WRITE_GOOD_CHECKS, [check]: true })) {
      const id = idAt.get(hit.index);
      if (id !== undefined && hit.offset === line(keys[id]!).length) out[id] = 1;
    }
    return out;
  };
  return { adverb: ask('adverb', (key) => key), auxiliary: ask('passive', (key) => `${key} opened`), participle: ask('passive', (key) => `was ${key}`) };
}

const ONLY_WHITESPACE = /^\s+$/;

/**
 * Passive voice and adverbs as write-good finds them, skipping adverbs inside dialogue. write-good
 * runs one regular expression per check over the whole text (a sixth of the analysis of a long
 * chapter, with its own bookkeeping); its expressions match whole \w runs — an adverb is a run,
 * a passive is an auxiliary run, whitespace, then a participle run — so here the library judges
 * each distinct run once (runClasses) and the text is walked run by run. library.test.ts holds
 * this to write-good over the whole text.
 */
function libraryFindings(text: string, runs: SpanList, keys: readonly string[], dialogue: readonly Span[], findings: Finding[], counts: Record<FindingKind, number>): void {
  const { adverb, auxiliary, participle } = runClasses(keys);
  // Each kind in text order, as write-good sorts them (a run is never both an auxiliary and an adverb).
  passiveFindings(text, runs, auxiliary, participle, findings, counts);
  adverbFindings(text, runs, adverb, dialogue, findings, counts);
}

function passiveFindings(text: string, runs: SpanList, auxiliary: Uint8Array, participle: Uint8Array, findings: Finding[], counts: Record<FindingKind, number>): void {
  const { starts, ends, ids } = runs;
  for (let i = 0; i + 1 < runs.count; i++) {
    if (auxiliary[ids[i]!] === 1 && participle[ids[i + 1]!] === 1 && ONLY_WHITESPACE.test(text.slice(ends[i]!, starts[i + 1]!))) {
      // The expression then goes on after the participle.
      const start = starts[i]!;
      const end = ends[++i]!;
      if (counted(counts, 'passive')) findings.push({ kind: 'passive', start, end, message: `"${text.slice(start, end)}" may be passive voice` });
    }
  }
}

function adverbFindings(text: string, runs: SpanList, adverb: Uint8Array, dialogue: readonly Span[], findings: Finding[], counts: Record<FindingKind, number>): void {
  const { starts, ends, ids } = runs;
  for (let i = 0; i < runs.count; i++) {
    if (adverb[ids[i]!] === 1 && !insideAny(dialogue, starts[i]!)) {
      const start = starts[i]!;
      const end = ends[i]!;
      if (counted(counts, 'adverb')) findings.push({ kind: 'adverb', start, end, message: `"${text.slice(start, end)}" can weaken meaning` });
    }
  }
}

/**
 * The text's distinct words, each looked up once: what every pass asks of a word (is it a function
 * word, a filter word, how many syllables) is then an array read by the word's id, not a hash lookup
 * of its text in every pass.
 */
interface Vocabulary {
  /** Per word of the text: the id of its lower case. */
  ids: Int32Array;
  /** Per id: may it count as a close repeat (4+ letters, not a function word). */
  repeatable: Uint8Array;
  /** Per id: is it a filter word. */
  filter: Uint8Array;
  keys: string[];
}

function vocabularyOf(words: readonly Word[]): Vocabulary {
  const index = new Map<string, number>();
  const keys: string[] = [];
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const key = words[i]!.key;
    let id = index.get(key);
    if (id === undefined) {
      id = keys.length;
      index.set(key, id);
      keys.push(key);
    }
    ids[i] = id;
  }
  return withFlags(ids, keys);
}

function withFlags(ids: Int32Array, keys: string[]): Vocabulary {
  const repeatable = Uint8Array.from(keys, (key) => (key.length >= 4 && !COMMON.has(key) ? 1 : 0));
  const filter = Uint8Array.from(keys, (key) => (FILTER_WORDS.has(key) ? 1 : 0));
  return { ids, repeatable, filter, keys };
}

function repeatFindings(text: string, words: SpanList, vocabulary: Vocabulary, findings: Finding[], counts: Record<FindingKind, number>): void {
  const { ids, repeatable } = vocabulary;
  const { starts, ends } = words;
  const lastSeen = new Int32Array(vocabulary.keys.length).fill(-1);
  for (let i = 0; i < words.count; i++) {
    const id = ids[i]!;
    if (repeatable[id] === 0) continue;
    const prev = lastSeen[id]!;
    if (prev >= 0 && i - prev <= REPEAT_WINDOW_WORDS) {
      const start = starts[i]!;
      const end = ends[i]!;
      if (counted(counts, 'repeat')) findings.push({ kind: 'repeat', start, end, message: `"${text.slice(start, end)}" is repeated ${i - prev} words after its last use` });
    }
    lastSeen[id] = i;
  }
}

function filterWordFindings(text: string, words: SpanList, vocabulary: Vocabulary, dialogue: readonly Span[], findings: Finding[], counts: Record<FindingKind, number>): void {
  const { ids, filter } = vocabulary;
  const { starts, ends } = words;
  for (let i = 0; i < words.count; i++) {
    const start = starts[i]!;
    if (filter[ids[i]!] === 1 && !insideAny(dialogue, start)) {
      const end = ends[i]!;
      if (counted(counts, 'filterWord')) findings.push({ kind: 'filterWord', start, end, message: `"${text.slice(start, end)}" filters the scene through a character: show it directly` });
    }
  }
}

/** How many of the words start inside dialogue: one pass along both, as both are in text order. */
function wordsInDialogue(words: SpanList, dialogue: readonly Span[]): number {
  let d = 0;
  let n = 0;
  for (let i = 0; i < words.count; i++) {
    const start = words.starts[i]!;
    while (d < dialogue.length && dialogue[d]!.end <= start) d++;
    if (d < dialogue.length && dialogue[d]!.start <= start) n++;
  }
  return n;
}

/** The (at most) three longest sentences, longest first and then in text order: a selection, not a sort of them all. */
function longestOf(sentences: readonly Sentence[]): Array<Span & { words: number }> {
  return longestThree(sentences).map((s) => ({ start: s.start, end: s.end, words: s.words }));
}

function longestThree(sentences: readonly Sentence[]): Sentence[] {
  const top: Sentence[] = [];
  for (const s of sentences) {
    // Sentences come in text order, so among equally long ones the earlier is already in place.
    let at = top.length;
    while (at > 0 && top[at - 1]!.words < s.words) at--;
    if (at < 3) {
      top.splice(at, 0, s);
      if (top.length > 3) top.pop();
    }
  }
  return top;
}

const PAST_MARK = 1;
const PRESENT_MARK = 2;
const FIRST_MARK = 4;
const THIRD_MARK = 8;
/** A run whose lower case is a first-person word: FIRST_PERSON is case-sensitive ("I", not "i"), so its text decides. */
const MAYBE_FIRST = 64;
const FIRST_PERSON_ANY_CASE = new RegExp(FIRST_PERSON.source, 'i');
/** "wasn" of "wasn't", "isn" of "isn't": a marker when "'t" follows. */
const PAST_BEFORE_NT = 16;
const PRESENT_BEFORE_NT = 32;
/** A past that may be a participle (PAST_OR_PARTICIPLE): the past unless a present auxiliary is there too. */
const WEAK_PAST_MARK = 128;

/**
 * The markers each distinct \w run carries, by the expressions themselves (a run matched alone is a
 * whole word to \b). Keys are in lower case, which the case-insensitive expressions do not mind.
 */
function runMarks(keys: readonly string[]): Uint8Array {
  return Uint8Array.from(keys, (key) => {
    const past = PAST.test(key) || SIMPLE_PAST.test(key);
    const present = PRESENT.test(key);
    return (
      (past ? PAST_MARK : 0) |
      (!past && PAST_OR_PARTICIPLE.test(key) && !NOT_PAST.has(key) ? WEAK_PAST_MARK : 0) |
      (present ? PRESENT_MARK : 0) |
      (FIRST_PERSON_ANY_CASE.test(key) ? MAYBE_FIRST : 0) |
      (THIRD_PERSON.test(key) ? THIRD_MARK : 0) |
      (!past && PAST.test(`${key}'t`) ? PAST_BEFORE_NT : 0) |
      (!present && PRESENT.test(`${key}'t`) ? PRESENT_BEFORE_NT : 0)
    );
  });
}

/**
 * The tense and person markers of each sentence's narration (dialogue left out: it may use any
 * tense and person), as PAST, PRESENT, FIRST_PERSON and THIRD_PERSON would find them in the
 * sentence's text with its dialogue blanked out — from the \w runs, without that text: no run
 * crosses a sentence's or a dialogue's edge (those lie at whitespace, quotation marks and line
 * breaks), so a sentence's narration holds exactly the runs that start in it outside dialogue.
 */
function sentenceMarks(text: string, sentences: readonly Sentence[], runs: SpanList, keys: readonly string[], dialogue: readonly Span[]): Uint8Array {
  const marksOf = runMarks(keys);
  const { starts, ends, ids } = runs;
  const out = new Uint8Array(sentences.length);
  let r = 0;
  let d = 0;
  sentences.forEach((s, k) => {
    if (s.inDialogue) return;
    while (r < runs.count && starts[r]! < s.start) r++;
    let marks = 0;
    for (; r < runs.count && starts[r]! < s.end; r++) {
      const start = starts[r]!;
      while (d < dialogue.length && dialogue[d]!.end <= start) d++;
      if (d < dialogue.length && dialogue[d]!.start <= start) continue;
      const m = marksOf[ids[r]!]!;
      marks |= m;
      if (m & MAYBE_FIRST && FIRST_PERSON.test(text.slice(start, ends[r]))) marks |= FIRST_MARK;
      // "wasn't": the run, a straight apostrophe, then the run "t" alone.
      if (m & (PAST_BEFORE_NT | PRESENT_BEFORE_NT) && text.charCodeAt(ends[r]!) === 0x27 && r + 1 < runs.count && starts[r + 1] === ends[r]! + 1 && keys[ids[r + 1]!] === 't') {
        marks |= (m & PAST_BEFORE_NT ? PAST_MARK : 0) | (m & PRESENT_BEFORE_NT ? PRESENT_MARK : 0);
      }
    }
    out[k] = marks;
  });
  return out;
}

function driftFindings(
  text: string,
  sentences: readonly Sentence[],
  runs: SpanList,
  keys: readonly string[],
  dialogue: readonly Span[],
  findings: Finding[],
  counts: Record<FindingKind, number>,
): Pick<ProseStats, 'tense' | 'pointOfView'> {
  const marks = Array.from(sentenceMarks(text, sentences, runs, keys, dialogue), (m) => ({
    past: (m & PAST_MARK) !== 0 || ((m & WEAK_PAST_MARK) !== 0 && (m & PRESENT_MARK) === 0),
    present: (m & PRESENT_MARK) !== 0,
    first: (m & FIRST_MARK) !== 0,
    third: (m & THIRD_MARK) !== 0,
  }));
  const tenses = marks.map((m) => (m.past && !m.present ? 'past' : m.present && !m.past ? 'present' : null));
  const past = tenses.filter((t) => t === 'past').length;
  const present = tenses.filter((t) => t === 'present').length;
  const marked = past + present;
  // A short passage (a pasted paragraph) has few sentences: half of them marked is enough there.
  const enough = Math.min(MIN_MARKED_SENTENCES, Math.max(2, Math.ceil(sentences.length / 2)));
  let tense: ProseStats['tense'] = 'unknown';
  if (marked >= enough) {
    tense = past / marked >= DOMINANT_SHARE ? 'past' : present / marked >= DOMINANT_SHARE ? 'present' : 'mixed';
  }
  if (tense === 'past' || tense === 'present') {
    const other = tense === 'past' ? 'present' : 'past';
    sentences.forEach((s, i) => {
      if (tenses[i] === other && counted(counts, 'tenseDrift')) findings.push({ kind: 'tenseDrift', start: s.start, end: s.end, message: `This sentence is in the ${other} tense; the narration is in the ${tense} tense` });
    });
  }

  const first = marks.filter((m) => m.first).length;
  const third = marks.filter((m) => m.third && !m.first).length;
  let pointOfView: ProseStats['pointOfView'] = 'unknown';
  if (first + third >= enough) {
    pointOfView = third / (first + third) >= DOMINANT_SHARE ? 'third' : first / (first + third) >= 0.5 ? 'first' : 'mixed';
  }
  // A first-person narrator mentions "he" and "she" all the time; only "I" in third-person narration drifts.
  if (pointOfView === 'third') {
    sentences.forEach((s, i) => {
      if (marks[i]!.first && counted(counts, 'povDrift')) findings.push({ kind: 'povDrift', start: s.start, end: s.end, message: 'First person ("I") outside dialogue in a third-person narration' });
    });
  }
  return { tense, pointOfView };
}

function longSentenceFindings(sentences: readonly Sentence[], findings: Finding[], counts: Record<FindingKind, number>): void {
  for (const s of sentences) {
    if (s.words > LONG_SENTENCE_WORDS && counted(counts, 'longSentence')) findings.push({ kind: 'longSentence', start: s.start, end: s.end, message: `${s.words} words in one sentence` });
  }
}

function longParagraphFindings(paragraphs: readonly Paragraph[], findings: Finding[], counts: Record<FindingKind, number>): void {
  for (const p of paragraphs) {
    if (p.words > LONG_PARAGRAPH_WORDS && counted(counts, 'longParagraph')) findings.push({ kind: 'longParagraph', start: p.start, end: p.end, message: `${p.words} words in one paragraph: a break would speed the pace` });
  }
}

/**
 * The standard Flesch formulas: reading ease 206.835 − 1.015·(words/sentence) − 84.6·(syllables/word),
 * grade 0.39·(words/sentence) + 11.8·(syllables/word) − 15.59. Syllables are counted once per
 * distinct word.
 */
export function flesch(words: readonly Word[], sentences: number, vocabulary: Vocabulary = vocabularyOf(words)): Pick<ProseStats, 'fleschReadingEase' | 'fleschKincaidGrade'> {
  return fleschOf(words.length, sentences, vocabulary);
}

/**
 * The syllables of the words: each distinct word's count (syllable) times its uses. The vocabulary
 * also holds pieces of words (tokens.ts runs) that are no word: only words used are counted.
 */
function syllablesOf(vocabulary: Vocabulary): number {
  const uses = usesOf(vocabulary);
  let syllables = 0;
  for (let id = 0; id < uses.length; id++) {
    if (uses[id]! > 0) {
      const key = vocabulary.keys[id]!;
      syllables += uses[id]! * (/^\p{N}+$/u.test(key) ? 1 : syllable(key));
    }
  }
  return syllables;
}

/**
 * How many times each id is used. A loop of its own: V8 compiles the long loop over the words
 * while it runs, and syllable's code inlined into it made that compile the longest of the analysis.
 */
function usesOf(vocabulary: Vocabulary): Int32Array {
  const uses = new Int32Array(vocabulary.keys.length);
  for (const id of vocabulary.ids) uses[id]!++;
  return uses;
}

function fleschOf(words: number, sentences: number, vocabulary: Vocabulary): Pick<ProseStats, 'fleschReadingEase' | 'fleschKincaidGrade'> {
  if (words === 0 || sentences === 0) return { fleschReadingEase: 0, fleschKincaidGrade: 0 };
  const syllables = syllablesOf(vocabulary);
  const wps = words / sentences;
  const spw = syllables / words;
  return { fleschReadingEase: round(206.835 - 1.015 * wps - 84.6 * spw, 2), fleschKincaidGrade: round(0.39 * wps + 11.8 * spw - 15.59, 2) };
}

function spread(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / values.length);
}

function summary(stats: ProseStats, counts: Record<FindingKind, number>, longest: number): string {
  const ease = stats.fleschReadingEase;
  const level = ease >= 80 ? 'very easy to read' : ease >= 60 ? 'easy to read' : ease >= 50 ? 'fairly difficult' : ease >= 30 ? 'difficult' : 'very difficult';
  const parts = [
    `Readability: Flesch reading ease ${round(ease)} (${level}), grade level ${round(stats.fleschKincaidGrade)}.`,
    `${stats.words} words in ${stats.sentences} sentences and ${stats.paragraphs} paragraphs; sentences average ${stats.averageSentenceWords} words (spread ${stats.sentenceWordsSpread}, longest ${longest}).`,
    `Dialogue is ${Math.round(stats.dialogueShare * 100)}% of the words; paragraphs average ${stats.averageParagraphWords} words.`,
  ];
  const notes: string[] = [];
  if (counts.passive) notes.push(`${counts.passive} possible passive ${counts.passive === 1 ? 'construction' : 'constructions'}`);
  if (counts.adverb) notes.push(`${counts.adverb} ${counts.adverb === 1 ? 'adverb' : 'adverbs'}`);
  if (counts.filterWord) notes.push(`${counts.filterWord} filter ${counts.filterWord === 1 ? 'word' : 'words'}`);
  if (counts.repeat) notes.push(`${counts.repeat} close ${counts.repeat === 1 ? 'repeat' : 'repeats'}`);
  if (counts.longSentence) notes.push(`${counts.longSentence} long ${counts.longSentence === 1 ? 'sentence' : 'sentences'}`);
  if (counts.longParagraph) notes.push(`${counts.longParagraph} long ${counts.longParagraph === 1 ? 'paragraph' : 'paragraphs'}`);
  if (counts.tenseDrift) notes.push(`${counts.tenseDrift} ${counts.tenseDrift === 1 ? 'sentence drifts' : 'sentences drift'} out of the ${stats.tense} tense`);
  if (counts.povDrift) notes.push(`${counts.povDrift} ${counts.povDrift === 1 ? 'sentence slips' : 'sentences slip'} into first person`);
  if (stats.sentences >= 5 && stats.sentenceWordsSpread < 3) notes.push('sentence lengths vary little: mix short and long sentences for rhythm');
  parts.push(notes.length > 0 ? `Worth a look: ${notes.join('; ')}.` : 'No passive voice, adverbs, filter words or close repeats found.');
  return parts.join(' ');
}

/**
 * Analyses chapter text as the author reads it: the emphasis markers are not words
 * (docs/decisions/0009-chapter-markup.md), so the visible text is analysed and every finding's and
 * sentence's offsets are mapped back onto the source, where the editor highlights them.
 */
export function analyzeProse(text: string): ProseAnalysis {
  if (!mayHoldMarkup(text)) return analyzeVisible(text);
  const map = visibleTextMap(text);
  const analysis = analyzeVisible(map.text);
  const toSource = <T extends { start: number; end: number }>(span: T): T => {
    const { from, to } = sourceRange(map, span.start, span.end);
    return { ...span, start: from, end: to };
  };
  return { ...analysis, findings: analysis.findings.map(toSource), longestSentences: analysis.longestSentences.map(toSource) };
}

function analyzeVisible(text: string): ProseAnalysis {
  const dialogue = dialogueRanges(text);
  const { words: allWords, runs, keys } = scanWords(text);
  const sentences = sentencesFrom(text, dialogue, allWords.starts, allWords.count);
  const paragraphs = paragraphsFrom(text, allWords.starts, allWords.count);
  // The analysis's own tokens (text.ts WORD_PATTERN) for its ratios; the figure shown is the one
  // word rule's (packages/schema rules.ts), the same as the editor's for the same text.
  const words = sentences.reduce((a, s) => a + s.words, 0);
  const wordCount = countWords(text);
  const findings = emptyArray<Finding>();
  const counts = emptyCounts();

  const vocabulary = withFlags(allWords.ids.subarray(0, allWords.count), keys);
  libraryFindings(text, runs, keys, dialogue, findings, counts);
  filterWordFindings(text, allWords, vocabulary, dialogue, findings, counts);
  repeatFindings(text, allWords, vocabulary, findings, counts);
  longSentenceFindings(sentences, findings, counts);
  longParagraphFindings(paragraphs, findings, counts);
  const { tense, pointOfView } = driftFindings(text, sentences, runs, keys, dialogue, findings, counts);

  const dialogueWords = wordsInDialogue(allWords, dialogue);
  const lengths = sentences.map((s) => s.words);
  const stats: ProseStats = {
    characters: text.length,
    words: wordCount,
    sentences: sentences.length,
    paragraphs: paragraphs.length,
    ...fleschOf(allWords.count, sentences.length, vocabulary),
    averageSentenceWords: sentences.length ? round(wordCount / sentences.length) : 0,
    sentenceWordsSpread: round(spread(lengths)),
    dialogueShare: words ? round(Math.min(1, dialogueWords / words), 3) : 0,
    averageParagraphWords: paragraphs.length ? round(wordCount / paragraphs.length) : 0,
    tense,
    pointOfView,
  };
  const longestSentences = longestOf(sentences);
  findings.sort((a, b) => a.start - b.start || a.end - b.end);
  return { analysis: summary(stats, counts, longestSentences[0]?.words ?? 0), stats, longestSentences, findings, counts };
}
