import { describe, expect, it } from 'vitest';
import { markupToHtml } from './markup-html';
import { htmlToMarkup } from './html-paste';

describe('markupToHtml', () => {
  it('writes emphasis as <em>/<strong>, escapes the text, and reads back through the paste as the same markup', () => {
    const text = 'The *Argo* <left> & **never** came ***back***.\nA line break.\n\nNext paragraph \\* star.';
    const html = markupToHtml(text);
    expect(html).toBe(
      '<p>The <em>Argo</em> &lt;left&gt; &amp; <strong>never</strong> came <strong><em>back</em></strong>.<br>A line break.</p><p>Next paragraph * star.</p>',
    );
    expect(htmlToMarkup(html)).toBe(text);
  });
});
