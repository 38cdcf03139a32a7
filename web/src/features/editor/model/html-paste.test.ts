import { describe, expect, it } from 'vitest';
import { parseMarkup, visibleText } from '@chronicler/schema';
import { SLICE_CHARS, htmlToMarkup, htmlToMarkupInSlices, sliceHtml } from './html-paste';

/** What Word for Windows puts on the clipboard (abridged head, the body as Word writes it). */
const WORD_HTML = `<html xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"
xmlns:w="urn:schemas-microsoft-com:office:word" xmlns="http://www.w3.org/TR/REC-html40">
<head><meta http-equiv=Content-Type content="text/html; charset=utf-8"><meta name=Generator content="Microsoft Word 15">
<style><!--
 /* Style Definitions */
 p.MsoNormal, li.MsoNormal, div.MsoNormal {mso-style-unhide:no; margin:0cm; font-size:12.0pt; font-family:"Times New Roman",serif;}
 span.Emphasis {font-style:italic;}
--></style><!--[if gte mso 10]><style>table.MsoNormalTable {mso-style-name:"Table Normal";}</style><![endif]-->
</head>
<body lang=EN-GB style='tab-interval:36.0pt;word-wrap:break-word'>
<!--StartFragment-->
<p class=MsoNormal>The <i style='mso-bidi-font-style:normal'>Argo</i> left
harbour at dawn, and <b style='mso-bidi-font-weight:normal'>nobody</b> saw her go.<o:p></o:p></p>
<p class=MsoNormal><o:p>&nbsp;</o:p></p>
<p class=MsoListParagraphCxSpFirst style='text-indent:-18.0pt;mso-list:l0 level1 lfo1'><![if !supportLists]><span
style='font-family:Symbol;mso-fareast-font-family:Symbol'><span style='mso-list:Ignore'>·<span
style='font:7.0pt "Times New Roman"'>&nbsp;&nbsp;&nbsp;&nbsp; </span></span></span><![endif]>A list item with a
<span style='font-style:italic'>styled</span> word<o:p></o:p></p>
<p class=MsoNormal>Price: 5 * 3 &amp; <a href="https://example.com/x">a link</a><img src="file:///C:/pic.png" width=20><o:p></o:p></p>
<!--EndFragment-->
</body></html>`;

/** What Google Docs puts on the clipboard: one <b style="font-weight:normal"> around everything. */
const GOOGLE_DOCS_HTML = `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-3c1f2a9b-7fff-d3e1-5a02-8e3c0c9d1a44"><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">She whispered, </span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:italic;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">not yet</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:400;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">.</span></p><br><p dir="ltr" style="line-height:1.38;margin-top:0pt;margin-bottom:0pt;"><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:normal;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;">Chapter two</span><span style="font-size:11pt;font-family:Arial,sans-serif;color:#000000;background-color:transparent;font-weight:700;font-style:italic;font-variant:normal;text-decoration:none;vertical-align:baseline;white-space:pre;white-space:pre-wrap;"> begins</span></p></b><br class="Apple-interchange-newline">`;

describe('htmlToMarkup', () => {
  it('keeps Word’s italic and bold, drops its list bullets, images, styles and link addresses', () => {
    const markup = htmlToMarkup(WORD_HTML);
    expect(markup).toBe(
      'The *Argo* left harbour at dawn, and **nobody** saw her go.\n\nA list item with a *styled* word\n\nPrice: 5 \\* 3 & a link',
    );
    expect(markup).not.toMatch(/Symbol|mso|example\.com|pic\.png|MsoNormal|·/u);
  });

  it('keeps Google Docs’ italic and bold from the spans’ styles, not from its wrapping <b>', () => {
    expect(htmlToMarkup(GOOGLE_DOCS_HTML)).toBe('She whispered, *not yet*.\n\n**Chapter two** ***begins***');
    expect(parseMarkup(htmlToMarkup(GOOGLE_DOCS_HTML))).toContainEqual({ text: 'begins', italic: true, bold: true });
  });

  it('reads a web page’s <em>, <strong>, <cite> and font-weight, with line breaks and blocks', () => {
    const html = '<article><h2>Title</h2><p>One <em>two</em> <strong>three</strong><br>four <span style="font-weight:600">five</span></p><blockquote><cite>Six</cite></blockquote></article>';
    expect(htmlToMarkup(html)).toBe('Title\n\nOne *two* **three**\nfour **five**\n\n*Six*');
  });

  it('yields only text and emphasis from scripts, styles, handlers and hidden text', () => {
    const html = '<p onclick="alert(1)">Safe <script>document.title="x"</script><style>p{}</style><span style="display:none">hidden</span><iframe src="https://evil"></iframe><i>text</i></p>';
    expect(htmlToMarkup(html)).toBe('Safe *text*');
  });

  it('keeps emphasis off the spaces at its edges (a marker beside a space cannot open or close)', () => {
    expect(htmlToMarkup('<p>a<i> word </i>b</p>')).toBe('a *word* b');
  });
});

describe('htmlToMarkupInSlices', () => {
  function bigGoogleDocsPaste(paragraphs: number): string {
    const p = (i: number) =>
      `<p dir="ltr" style="line-height:1.38;"><span style="font-weight:400;font-style:normal;">Paragraph ${i} and </span><span style="font-weight:400;font-style:italic;">its italic phrase</span><span style="font-weight:400;font-style:normal;"> end.</span></p><br>`;
    return `<meta charset="utf-8"><b style="font-weight:normal;" id="docs-internal-guid-1">${Array.from({ length: paragraphs }, (_, i) => p(i)).join('')}</b>`;
  }

  it('reads a paste in slices as one read in one go, the wrapper’s style carried across the cuts', async () => {
    const html = bigGoogleDocsPaste(1200);
    expect(sliceHtml(html).length).toBeGreaterThan(3);
    let yields = 0;
    const sliced = await htmlToMarkupInSlices(html, async () => {
      yields++;
    });
    expect(yields).toBe(sliceHtml(html).length);
    expect(sliced).toBe(htmlToMarkup(html));
    expect(sliced.split('\n\n')).toHaveLength(1200);
    expect(sliced).not.toContain('**');
  }, 30_000);

  it('carries an italic wrapper of many paragraphs into every slice', async () => {
    const body = Array.from({ length: 2000 }, (_, i) => `<p>Line ${i} of the letter</p>`).join('');
    const html = `<div style="font-style:italic">${body}</div><p>After</p>`;
    const markup = await htmlToMarkupInSlices(html, async () => undefined);
    const paragraphs = markup.split('\n\n');
    expect(paragraphs.slice(0, 2000).every((p) => /^\*Line \d+ of the letter\*$/u.test(p))).toBe(true);
    expect(paragraphs[2000]).toBe('After');
  });

  it('cuts only after a block, into slices near the slice size', () => {
    const html = bigGoogleDocsPaste(1200);
    const slices = sliceHtml(html);
    expect(slices.join('')).toBe(html);
    for (const slice of slices.slice(0, -1)) {
      expect(slice.length).toBeGreaterThanOrEqual(SLICE_CHARS);
      expect(slice.length).toBeLessThan(SLICE_CHARS + 1000);
      expect(slice).toMatch(/(<\/p>|<br>)$/u);
    }
    expect(visibleText(htmlToMarkup(html))).toContain('Paragraph 1199 and its italic phrase end.');
  }, 30_000);
});
