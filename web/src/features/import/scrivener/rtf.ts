/**
 * RTF as Scrivener writes it (content.rtf, notes.rtf, snapshots) → paragraphs of chapter markup
 * (docs/decisions/0009-chapter-markup.md): italic and bold kept, every other look dropped; `\uN`
 * escapes, `\'hh` bytes in the document's code page (`\ansicpg`, any code page the browser's
 * TextDecoder reads, multi-byte ones included), the named quotes and dashes. What cannot come in
 * (pictures, embedded objects, footnotes, annotations, tables' layout, unknown destinations and
 * control words) is counted by kind to be listed before anything is written.
 *
 * A small tokenizer rather than a library: it runs in a Web Worker (no DOM, so rtf.js cannot), in
 * the browser (no Node streams, so rtf-parser / @iarna/rtf-to-html cannot), and none of them says
 * what it skipped (docs/decisions/0013-scrivener-import.md).
 */
import { type Run, appendRun, isSceneBreakLine, serializeRuns } from '@chronicler/schema';

/** What a text held that does not come across, by kind; `unknown` names the RTF words skipped. */
export interface RtfLeftOut {
  image: number;
  object: number;
  footnote: number;
  comment: number;
  table: number;
  unknown: Set<string>;
}

export interface RtfText {
  /** One marked-text paragraph per entry (empty paragraphs dropped). */
  paragraphs: string[];
  leftOut: RtfLeftOut;
}

export function emptyRtfLeftOut(): RtfLeftOut {
  return { image: 0, object: 0, footnote: 0, comment: 0, table: 0, unknown: new Set() };
}

/** Destinations whose content is never text: skipped without a word. */
const SILENT_DESTINATIONS = new Set([
  'fonttbl', 'colortbl', 'stylesheet', 'info', 'listtable', 'listoverridetable', 'rsidtbl', 'generator',
  'xmlnstbl', 'mmathPr', 'themedata', 'colorschememapping', 'latentstyles', 'datastore', 'pgdsctbl',
  'expandedcolortbl', 'fldinst', 'nonshppict', 'listtext', 'pntext', 'pntxta', 'pntxtb', 'bkmkstart', 'bkmkend',
  'revtbl', 'filetbl', 'docvar', 'userprops', 'wgrffmtfilter', 'defchp', 'defpap', 'panose', 'falt',
  'fname', 'keycode', 'template', 'title', 'author', 'operator', 'company', 'creatim', 'revtim', 'printim', 'buptim',
  'listpicture', 'listlevel', 'leveltext', 'levelnumbers', 'list', 'listname', 'listoverride', 'txfieldtext',
  'ftnsep', 'ftnsepc', 'aftnsep', 'aftnsepc', 'header', 'footer', 'headerl', 'headerr', 'headerf', 'footerl', 'footerr', 'footerf',
  'shpinst', 'sp', 'sn', 'sv', 'xe', 'tc', 'private', 'passwordhash',
]);

/** Destinations dropped and listed, by kind. */
const LEFT_OUT_DESTINATIONS: Record<string, keyof Omit<RtfLeftOut, 'unknown' | 'table'>> = {
  pict: 'image',
  shppict: 'image',
  shp: 'image',
  NeXTGraphic: 'image',
  object: 'object',
  footnote: 'footnote',
  annotation: 'comment',
  atnid: 'comment',
  atnauthor: 'comment',
  atrfstart: 'comment',
  atrfend: 'comment',
  atnref: 'comment',
  atndate: 'comment',
};

/**
 * Control words that only shape the page or the characters (dropped on purpose, not listed):
 * exact words and the families that share a prefix with a numeric parameter.
 */
const FORMATTING_WORDS = new Set([
  'rtf', 'ansi', 'mac', 'pc', 'pca', 'deff', 'deflang', 'deflangfe', 'adeflang', 'uc', 'pard', 'plain', 'f', 'fs', 'cf', 'cb',
  'highlight', 'ul', 'ulnone', 'ulw', 'uld', 'uldb', 'strike', 'striked', 'scaps', 'caps', 'outl', 'shad', 'v', 'sub', 'super', 'nosupersub',
  'up', 'dn', 'expnd', 'expndtw', 'kerning', 'charscalex', 'lang', 'langfe', 'langnp', 'langfenp', 'loch', 'hich', 'dbch',
  'af', 'afs', 'ab', 'ai', 'ltrch', 'rtlch', 'ltrpar', 'rtlpar', 'ql', 'qr', 'qc', 'qj', 'qd', 'fi', 'li', 'ri', 'lin', 'rin',
  'sb', 'sa', 'sl', 'slmult', 'sbauto', 'saauto', 'tx', 'tqr', 'tqc', 'tqdec', 'tldot', 'widctlpar', 'nowidctlpar',
  'keep', 'keepn', 'pagebb', 'hyphpar', 'nooverflow', 'faauto', 'adjustright', 'adjustleft', 'aspalpha', 'aspnum', 'itap',
  'paperw', 'paperh', 'margl', 'margr', 'margt', 'margb', 'gutter', 'sectd', 'sbknone', 'sbkpage', 'pgwsxn', 'pghsxn',
  'marglsxn', 'margrsxn', 'margtsxn', 'margbsxn', 'headery', 'footery', 'cols', 'colsx', 'linex', 'endnhere', 'sectdefaultcl',
  'viewkind', 'viewscale', 'viewzk', 'vieww', 'viewh', 'deftab', 'widowctrl', 'ftnbj', 'aenddoc', 'noxlattoyen', 'expshrtn',
  'noultrlspc', 'dntblnsbdb', 'nospaceforul', 'formshade', 'horzdoc', 'dghspace', 'dgvspace', 'dghorigin', 'dgvorigin',
  'dghshow', 'dgvshow', 'jexpand', 'pgbrdrhead', 'pgbrdrfoot', 'splytwnine', 'ftnlytwnine', 'htmautsp', 'useltbaln',
  'alntblind', 'lytcalctblwd', 'lyttblrtgr', 'lnbrkrule', 'nobrkwrptbl', 'snaptogridincell', 'allowfieldendsel', 'wrppunct',
  'asianbrkrule', 'rsidroot', 'newtblstyruls', 'nogrowautofit', 'fet', 'ilfomacatclnup', 'insrsid', 'charrsid', 'rsid',
  'pararsid', 'sectrsid', 'tblrsid', 'fcharset', 'fprq', 'fnil', 'froman', 'fswiss', 'fmodern', 'fscript', 'fdecor', 'ftech', 'fbidi',
  'red', 'green', 'blue', 'csgray', 'c', 'cssrgb', 'csgenericrgb', 'pardirnatural', 'partightenfactor', 'cocoartf', 'cocoasubrtf',
  'ls', 'ilvl', 'pntext', 'pnlvlblt', 'pnf', 'pnindent', 'pnstart', 'pndec', 'pnlvlbody', 'pnlvlcont', 'fldrslt', 'field', 'fldedit', 'fldlock',
  'trowd', 'trgaph', 'trleft', 'trql', 'trqc', 'trqr', 'cellx', 'clvertalt', 'clvertalc', 'clvertalb', 'intbl', 'trautofit', 'trpaddl',
  'trpaddr', 'trpaddfl', 'trpaddfr', 'clbrdrt', 'clbrdrl', 'clbrdrb', 'clbrdrr', 'brdrs', 'brdrw', 'brdrcf', 'brdrnone', 'clwWidth', 'clftsWidth',
  'trftsWidth', 'trwWidth', 'lastrow', 'nestrow', 'nesttableprops', 'nonesttables', 'irow', 'irowband', 'ts', 'tsrowd', 'clpadt', 'clpadl',
  'clpadb', 'clpadr', 'clpadft', 'clpadfl', 'clpadfb', 'clpadfr', 'brdrt', 'brdrl', 'brdrb', 'brdrr', 'box', 'brsp', 'shading', 'cbpat', 'cfpat',
  'outlinelevel', 's', 'cs', 'ds', 'additive', 'sbasedon', 'snext', 'slink', 'sqformat', 'spriority', 'styrsid', 'ssemihidden', 'sunhideused',
  'noproof', 'cgrid', 'nocwrap', 'absw', 'absh', 'posx', 'posy', 'dxfrtext', 'phmrg', 'pvpara', 'wraparound', 'hres', 'vres', 'htmlrtf',
  'horzvert', 'alang', 'ansicpg', 'cpg', 'margmirror', 'facingp', 'titlepg', 'landscape', 'linemod', 'pgnstarts', 'pgncont', 'pgnrestart',
  'lndscpsxn', 'nolnhtadjtbl', 'hyphauto', 'hyphhotz', 'hyphcaps', 'hyphconsec', 'readprot', 'annotprot', 'formprot', 'revprot', 'allprot',
  'stshfdbch', 'stshfloch', 'stshfhich', 'stshfbi', 'themelang', 'themelangfe', 'themelangcs', 'ftnnar', 'aftnnrlc', 'fromtext', 'fromhtml',
  'uprstr', 'nouicompat', 'viewbksp', 'level', 'lvltentative', 'levelnfc', 'levelnfcn', 'leveljc', 'leveljcn', 'levelfollow', 'levelstartat',
  'levelindent', 'levelspace', 'levellegal', 'levelnorestart', 'levelold', 'levelprev', 'levelprevspace', 'levelpicture', 'listid',
  'listtemplateid', 'listhybrid', 'listsimple', 'listrestarthdn', 'listoverridecount', 'tab', 'softline', 'chftn', 'chftnsep',
  // Cocoa (Scrivener for macOS) words.
  'cocoatextscaling', 'cocoaplatform', 'AppleTypeServices', 'AppleTypeServicesU', 'pardeftab', 'slleading', 'CocoaLigature', 'strokewidth',
  'strokec', 'ulc', 'shadr', 'shadx', 'shady', 'shadb', 'fsmilli', 'pgnx', 'pgny', 'nointbl', 'hyphenationfactor', 'readonlydoc', 'ATXht', 'ATXstyle',
]);

const NAMED_CHARACTERS: Record<string, string> = {
  emdash: '\u2014',
  endash: '\u2013',
  emspace: '\u2003',
  enspace: '\u2002',
  qmspace: '\u2005',
  bullet: '\u2022',
  lquote: '\u2018',
  rquote: '\u2019',
  ldblquote: '\u201C',
  rdblquote: '\u201D',
  zwj: '\u200D',
  zwnj: '\u200C',
  ltrmark: '',
  rtlmark: '',
};

/** Scrivener's own style and compile markers, left in the text as plain characters. */
const SCRIVENER_MARKERS = /<!?\$Scr_[A-Za-z]+::\d+>|<!?\$ScrKeepWithNext>/g;

const UTF8 = new TextDecoder('utf-8', { fatal: true });

interface GroupState {
  italic: boolean;
  bold: boolean;
  /** Skip every character in this group (a destination that is not text). */
  skip: boolean;
  /** How many characters follow a `\uN` as its fallback (`\ucN`). */
  uc: number;
}

/** Windows-1252's 0x80–0x9F (curly quotes, dashes, €…): some runtimes (Node before 23) decode 1252 as Latin-1. */
const CP1252_HIGH = '\u20AC\u0081\u201A\u0192\u201E\u2026\u2020\u2021\u02C6\u2030\u0160\u2039\u0152\u008D\u017D\u008F\u0090\u2018\u2019\u201C\u201D\u2022\u2013\u2014\u02DC\u2122\u0161\u203A\u0153\u009D\u017E\u0178';

interface ByteDecoder {
  decode(bytes: Uint8Array): string;
}

const CP1252: ByteDecoder = {
  decode: (bytes) => {
    let out = '';
    for (const b of bytes) out += b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : String.fromCharCode(b);
    return out;
  },
};

function decoderFor(codePage: number): ByteDecoder {
  if (codePage === 1252) return CP1252;
  const label = codePage === 65001 ? 'utf-8' : codePage === 10000 ? 'macintosh' : codePage === 932 ? 'shift_jis' : `windows-${codePage}`;
  try {
    return new TextDecoder(label);
  } catch {
    try {
      return new TextDecoder(`cp${codePage}`);
    } catch {
      return CP1252;
    }
  }
}

/** A paragraph's runs as one line of markup; a line that is only a separator stays as typed. */
function paragraphMarkup(runs: Run[]): string {
  const text = runs.map((r) => r.text).join('');
  if (text.trim() === '') return '';
  if (isSceneBreakLine(text)) return text.trim();
  const trimmed = trimRuns(runs);
  return serializeRuns(trimmed);
}

function trimRuns(runs: Run[]): Run[] {
  const out = runs.map((r) => ({ ...r, text: r.text.replace(/[\t\u00A0 ]+/g, (m) => (m.includes('\u00A0') ? m : ' ')) }));
  while (out.length && out[0]!.text.trimStart() === '') out.shift();
  while (out.length && out[out.length - 1]!.text.trimEnd() === '') out.pop();
  if (out.length) {
    out[0] = { ...out[0]!, text: out[0]!.text.trimStart() };
    out[out.length - 1] = { ...out[out.length - 1]!, text: out[out.length - 1]!.text.trimEnd() };
  }
  return out;
}

/**
 * Reads RTF bytes (or a string of byte-valued characters). Malformed input never throws: an
 * unclosed group ends with the text, a stray `}` is ignored, and what was read is kept.
 */
export function readRtf(input: Uint8Array | string): RtfText {
  const source = typeof input === 'string' ? input : latin1(input);
  const leftOut = emptyRtfLeftOut();
  const paragraphs: string[] = [];
  let runs: Run[] = [];
  let decoder = decoderFor(1252);
  let pendingBytes: number[] = [];
  let state: GroupState = { italic: false, bold: false, skip: false, uc: 1 };
  const stack: GroupState[] = [];
  /** Characters still to skip after a `\uN`. */
  let skipFallback = 0;
  let inTable = false;
  let tableRowHasText = false;
  /** A row just ended: a `\trowd` now continues the same table. */
  let afterRow = false;
  /** The next control word opens a destination (`{\*\name` or a known destination word). */
  let groupStart = false;
  let starred = false;

  const flushBytes = () => {
    if (pendingBytes.length === 0) return;
    const text = decoder.decode(new Uint8Array(pendingBytes));
    pendingBytes = [];
    appendRun(runs, { text, italic: state.italic, bold: state.bold });
  };
  const emit = (text: string) => {
    if (state.skip) return;
    if (skipFallback > 0) {
      skipFallback -= 1;
      return;
    }
    flushBytes();
    appendRun(runs, { text, italic: state.italic, bold: state.bold });
  };
  const endParagraph = () => {
    flushBytes();
    const line = paragraphMarkup(runs).replace(SCRIVENER_MARKERS, '');
    if (line.trim() !== '') {
      paragraphs.push(line);
      if (!inTable) afterRow = false;
    }
    runs = [];
  };

  let i = 0;
  const n = source.length;
  while (i < n) {
    const ch = source[i]!;
    if (ch === '{') {
      flushBytes();
      stack.push(state);
      state = { ...state };
      groupStart = true;
      starred = false;
      i += 1;
      continue;
    }
    if (ch === '}') {
      flushBytes();
      state = stack.pop() ?? state;
      groupStart = false;
      skipFallback = 0;
      i += 1;
      continue;
    }
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === undefined) break;
      // Control symbols.
      if (next === '\\' || next === '{' || next === '}') {
        emit(next);
        i += 2;
        groupStart = false;
        continue;
      }
      if (next === '*') {
        starred = true;
        i += 2;
        continue;
      }
      if (next === "'") {
        const hex = source.slice(i + 2, i + 4);
        i += 4;
        groupStart = false;
        if (state.skip) continue;
        if (skipFallback > 0) {
          skipFallback -= 1;
          continue;
        }
        const byte = parseInt(hex, 16);
        if (!Number.isNaN(byte)) pendingBytes.push(byte);
        continue;
      }
      if (next === '~') {
        emit('\u00A0');
        i += 2;
        continue;
      }
      if (next === '_') {
        emit('\u2011');
        i += 2;
        continue;
      }
      if (next === '-') {
        i += 2;
        continue;
      }
      if (next === '\n' || next === '\r') {
        // `\` before a line break is \par.
        if (!state.skip) endParagraph();
        i += 2;
        continue;
      }
      if (!/[a-zA-Z]/.test(next)) {
        i += 2;
        continue;
      }
      // A control word: letters, an optional signed number, one optional space.
      let j = i + 1;
      while (j < n && /[a-zA-Z]/.test(source[j]!)) j += 1;
      const word = source.slice(i + 1, j);
      let k = j;
      if (source[k] === '-' || /[0-9]/.test(source[k] ?? '')) {
        k += 1;
        while (k < n && /[0-9]/.test(source[k]!)) k += 1;
      }
      const param = k > j ? Number(source.slice(j, k)) : null;
      if (source[k] === ' ') k += 1;
      i = k;
      const opensGroup = groupStart;
      groupStart = false;

      if (opensGroup && (starred || word in LEFT_OUT_DESTINATIONS || SILENT_DESTINATIONS.has(word))) {
        starred = false;
        if (state.skip) continue;
        const kind = LEFT_OUT_DESTINATIONS[word];
        if (kind) leftOut[kind] += 1;
        else if (!SILENT_DESTINATIONS.has(word)) leftOut.unknown.add(`\\${word}`);
        flushBytes();
        state.skip = true;
        continue;
      }
      starred = false;
      if (state.skip) continue;
      switch (word) {
        case 'par':
        case 'sect':
        case 'page':
          if (inTable) {
            tableRowHasText = true;
            emit(' ');
          } else endParagraph();
          break;
        case 'line':
          emit(' ');
          break;
        case 'i':
          flushBytes();
          state.italic = param !== 0;
          break;
        case 'b':
          flushBytes();
          state.bold = param !== 0;
          break;
        case 'plain':
          flushBytes();
          state.italic = false;
          state.bold = false;
          break;
        case 'ansicpg':
          flushBytes();
          if (param !== null) decoder = decoderFor(param);
          break;
        case 'uc':
          state.uc = param ?? 1;
          break;
        case 'u':
          if (param !== null) {
            flushBytes();
            // Negative values are the signed 16-bit form; surrogate halves pair up in appendRun's text.
            const code = param < 0 ? param + 65536 : param;
            appendRun(runs, { text: String.fromCharCode(code), italic: state.italic, bold: state.bold });
            skipFallback = state.uc;
          }
          break;
        case 'tab':
          emit('\t');
          break;
        case 'trowd':
          if (!inTable && !afterRow) leftOut.table += 1;
          inTable = true;
          break;
        case 'cell':
        case 'nestcell':
          emit('\t');
          tableRowHasText = true;
          break;
        case 'row':
        case 'nestrow':
          // A row's cells become one paragraph, the cells apart: the words stay, the layout goes.
          if (tableRowHasText) endParagraph();
          tableRowHasText = false;
          inTable = false;
          afterRow = true;
          break;
        default:
          if (word in NAMED_CHARACTERS) emit(NAMED_CHARACTERS[word]!);
          else if (!FORMATTING_WORDS.has(word)) leftOut.unknown.add(`\\${word}`);
      }
      continue;
    }
    if (ch === '\n' || ch === '\r') {
      i += 1;
      continue;
    }
    groupStart = false;
    starred = false;
    // Plain text: a run of characters up to the next special one.
    let j = i;
    while (j < n && source[j] !== '\\' && source[j] !== '{' && source[j] !== '}' && source[j] !== '\n' && source[j] !== '\r') j += 1;
    let text = source.slice(i, j);
    i = j;
    if (state.skip) continue;
    if (skipFallback > 0) {
      const dropped = Math.min(skipFallback, text.length);
      text = text.slice(dropped);
      skipFallback -= dropped;
    }
    if (text === '') continue;
    // Characters above 0x7F written raw (RTF escapes them; some tools write UTF-8): UTF-8 when
    // they read as UTF-8, else bytes of the code page, like \'hh.
    if (/[\u0080-\u00FF]/.test(text)) {
      flushBytes();
      const raw = Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
      let decoded: string;
      try {
        decoded = UTF8.decode(raw);
      } catch {
        decoded = decoder.decode(raw);
      }
      appendRun(runs, { text: decoded, italic: state.italic, bold: state.bold });
      continue;
    }
    flushBytes();
    appendRun(runs, { text, italic: state.italic, bold: state.bold });
  }
  endParagraph();
  return { paragraphs, leftOut };
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) out += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return out;
}

/** Plain text of RTF (notes, synopses): paragraphs joined by line breaks. */
export function rtfToMarkup(input: Uint8Array | string): RtfText & { text: string } {
  const read = readRtf(input);
  return { ...read, text: read.paragraphs.join('\n') };
}
