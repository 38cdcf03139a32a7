/**
 * EPUB 3 written directly with fflate (a zip with the `mimetype` entry first and stored): package
 * document with title, author, language, description and modification date; a navigation document
 * (and an NCX for older readers); one XHTML file per chapter, and a part page per book in a series.
 * Emphasis is `<em>` and `<strong>`; a right-to-left paragraph has `dir="rtl"`, and a Chinese,
 * Japanese or Korean one its `lang`, so readers pick the right glyph forms (docs/web.md, "Export").
 * Validated by EPUBCheck in the tests.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';
import { type ExportProfile, type Manuscript, type Run, DEFAULT_SCENE_BREAK } from '@chronicler/schema';
import type { Progress } from './progress';
import { cjkLanguage, paragraphDirection } from './script';

export interface EpubOptions {
  /** A stable identifier (the series or book id); the same book keeps the same identifier. */
  identifier: string;
  language?: string;
  /** The modification time written in the package (now by default). */
  modified?: Date;
}

function xml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    // Characters XML 1.0 forbids (control codes) cannot be written at all.
    // eslint-disable-next-line no-control-regex -- control codes are exactly what is removed here
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '');
}

function page(title: string, lang: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
<head><meta charset="UTF-8"/><title>${xml(title)}</title><link rel="stylesheet" type="text/css" href="style.css"/></head>
<body>
${body}
</body>
</html>
`;
}

const STYLE = (font: string) => `body { font-family: ${font}; line-height: 1.5; }
h1, h2 { text-align: center; font-weight: normal; margin: 3em 0 1.5em; page-break-before: always; }
p { margin: 0; text-indent: 1.5em; }
p.opening { text-indent: 0; }
p.scene-break { text-align: center; text-indent: 0; margin: 1em 0; }
.title-page { text-align: center; margin-top: 30%; }
.title-page p { text-indent: 0; }
`;

interface Item { id: string; href: string; title: string; level: number }

function runsXhtml(runs: readonly Run[]): string {
  return runs.map((run) => {
    let out = xml(run.text);
    if (run.italic) out = `<em>${out}</em>`;
    if (run.bold) out = `<strong>${out}</strong>`;
    return out;
  }).join('');
}

function paragraphXhtml(text: string, runs: readonly Run[], opening: boolean): string {
  const cjk = cjkLanguage(text);
  const attributes = (opening ? ' class="opening"' : '') + (paragraphDirection(text) === 'rtl' ? ' dir="rtl"' : '') + (cjk ? ` lang="${cjk}" xml:lang="${cjk}"` : '');
  return `<p${attributes}>${runsXhtml(runs)}</p>`;
}

export function manuscriptToEpub(m: Manuscript, profile: ExportProfile, options: EpubOptions, progress: Progress = () => {}): Uint8Array {
  const lang = options.language ?? 'en';
  const sceneBreak = profile.sceneBreak.trim() || DEFAULT_SCENE_BREAK;
  const files: Zippable = {
    mimetype: [strToU8('application/epub+zip'), { level: 0 }],
    'META-INF/container.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles>
</container>
`),
    'OEBPS/style.css': strToU8(STYLE(profile.font === 'sans' ? 'sans-serif' : 'serif')),
  };
  const items: Item[] = [{ id: 'title', href: 'title.xhtml', title: m.title, level: 1 }];
  files['OEBPS/title.xhtml'] = strToU8(
    page(m.title, lang, `<section class="title-page" epub:type="titlepage"><h1>${xml(m.title)}</h1><p>by ${xml(m.author)}</p></section>`),
  );
  const total = m.books.reduce((n, b) => n + b.chapters.length, 0);
  let done = 0;
  let n = 0;
  const manyBooks = m.books.length > 1;
  m.books.forEach((book, b) => {
    if (manyBooks) {
      const href = `part-${b + 1}.xhtml`;
      items.push({ id: `part-${b + 1}`, href, title: book.title, level: 1 });
      files[`OEBPS/${href}`] = strToU8(page(book.title, lang, `<section epub:type="part"><h1>${xml(book.title)}</h1></section>`));
    }
    for (const chapter of book.chapters) {
      n += 1;
      const href = `chapter-${String(n).padStart(4, '0')}.xhtml`;
      items.push({ id: `chapter-${n}`, href, title: chapter.title, level: manyBooks ? 2 : 1 });
      const body = chapter.blocks
        .map((block) =>
          block.kind === 'sceneBreak'
            ? `<p class="scene-break" role="separator">${xml(sceneBreak)}</p>`
            : paragraphXhtml(block.text, block.runs, block.opening),
        )
        .join('\n');
      files[`OEBPS/${href}`] = strToU8(page(chapter.title, lang, `<section epub:type="chapter"><h2>${xml(chapter.title)}</h2>\n${body}</section>`));
      progress((++done / Math.max(1, total)) * 0.9);
    }
  });
  files['OEBPS/nav.xhtml'] = strToU8(page('Contents', lang, `<nav epub:type="toc" id="toc"><h1>Contents</h1>\n${navList(items)}</nav>`));
  files['OEBPS/toc.ncx'] = strToU8(ncx(m, options.identifier, items));
  const modified = (options.modified ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  files['OEBPS/content.opf'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="book-id" xml:lang="${lang}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="book-id">urn:uuid:${xml(options.identifier)}</dc:identifier>
    <dc:title>${xml(m.title)}</dc:title>
    <dc:creator>${xml(m.author)}</dc:creator>
    <dc:language>${lang}</dc:language>
    <dc:description>${xml(m.description.trim() || `${m.title} by ${m.author}`)}</dc:description>
    <meta property="dcterms:modified">${modified}</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/>
    <item id="style" href="style.css" media-type="text/css"/>
${items.map((i) => `    <item id="${i.id}" href="${i.href}" media-type="application/xhtml+xml"/>`).join('\n')}
  </manifest>
  <spine toc="ncx">
${items.map((i) => `    <itemref idref="${i.id}"/>`).join('\n')}
  </spine>
</package>
`);
  const zipped = zipSync(files, { level: 6 });
  progress(1);
  return zipped;
}

function navList(items: Item[]): string {
  // Parts (level 1) hold their chapters (level 2) in a nested list.
  let out = '<ol>\n';
  let open = false;
  for (const item of items) {
    const link = `<a href="${item.href}">${xml(item.title) || 'Untitled'}</a>`;
    if (item.level === 2) {
      if (!open) { out += '<ol>\n'; open = true; }
      out += `<li>${link}</li>\n`;
    } else {
      if (open) { out += '</ol></li>\n'; open = false; }
      const hasChildren = items[items.indexOf(item) + 1]?.level === 2;
      out += hasChildren ? `<li>${link}\n` : `<li>${link}</li>\n`;
    }
  }
  if (open) out += '</ol></li>\n';
  return `${out}</ol>`;
}

function ncx(m: Manuscript, identifier: string, items: Item[]): string {
  const points = items
    .map((item, i) => `<navPoint id="np-${i + 1}" playOrder="${i + 1}"><navLabel><text>${xml(item.title) || 'Untitled'}</text></navLabel><content src="${item.href}"/></navPoint>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1">
<head><meta name="dtb:uid" content="urn:uuid:${xml(identifier)}"/></head>
<docTitle><text>${xml(m.title)}</text></docTitle>
<navMap>
${points}
</navMap>
</ncx>
`;
}
