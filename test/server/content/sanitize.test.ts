// The allow-list cleaner of operator HTML (issue 21) against hostile inputs: whatever comes in,
// what goes out has no script, no event handler, no style or class, no link but http(s)/mailto,
// no image but our own content images, and keeps the allowed text structure.
import { describe, expect, it } from 'vitest';
import { plainText, sanitizeContentHtml, summaryOf } from '../../../server/domain/programs/content/sanitize.ts';

const ownImage = '/api/public/content/image/0123456789abcdef0123456789abcdef';

const hostile = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=//evil.example/x.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  `<img src="${ownImage}" onerror="alert(1)" style="width:9999px">`,
  `<img src="${ownImage}?x=1">`,
  '<img src="https://evil.example/pixel.gif">',
  '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
  '<a href="javascript:alert(1)">a</a>',
  '<a href=" javascript:alert(1)">b</a>',
  '<a href="jav&#x09;ascript:alert(1)">c</a>',
  '<a href="JaVaScRiPt&#58;alert(1)">d</a>',
  '<a href="vbscript:msgbox(1)">e</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD4=">f</a>',
  '<a href="//evil.example">g</a>',
  '<p style="background:url(javascript:alert(1))" class="x" id="y" onmouseover="alert(1)">p</p>',
  '<style>@import "https://evil.example/x.css";</style>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="x.swf"></object><embed src="x.swf">',
  '<svg onload=alert(1)><circle/></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '<!--<img src=x onerror=alert(1)>-->',
  '<form action="https://evil.example"><input name="p"><button>go</button></form>',
  '<base href="https://evil.example/"><meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<div><p>nested <b>ok</b></p></div>',
];

describe('sanitizeContentHtml', () => {
  it.each(hostile)('neutralises %s', (input) => {
    const output = sanitizeContentHtml(input).toLowerCase();
    for (const bad of ['<script', 'onerror', 'onload', 'onmouseover', 'onclick', 'style=', '<style', 'class=', 'id=', 'javascript:',
      'vbscript:', 'data:', '<iframe', '<object', '<embed', '<svg', '<math', '<form', '<input', '<button', '<base', '<meta',
      'evil.example', 'x=1']) {
      expect(output).not.toContain(bad);
    }
    expect(output).not.toMatch(/<img(?![^>]*src="\/api\/public\/content\/image\/[0-9a-f]{32}")/);
  });

  it('keeps the allowed structure, our own images and safe links (opened without opener)', () => {
    const input = `<h1>Title</h1><h2>Part</h2><p>Text <strong>bold</strong> <em>it</em> <u>u</u> <s>s</s><br>line</p>`
      + `<ul><li>one</li></ul><ol start="3"><li>three</li></ol><blockquote>q</blockquote><pre><code>x = 1</code></pre><hr>`
      + `<figure><img src="${ownImage}" alt="chart" width="320"><figcaption>Chart</figcaption></figure>`
      + `<table><thead><tr><th>A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>`
      + `<a href="https://bourse.example/a?b=1&c=2">web</a> <a href="mailto:help@bourse.local">mail</a>`;
    expect(sanitizeContentHtml(input)).toBe(`<h2>Title</h2><h2>Part</h2><p>Text <strong>bold</strong> <em>it</em> <u>u</u> <s>s</s><br />line</p>`
      + `<ul><li>one</li></ul><ol start="3"><li>three</li></ol><blockquote>q</blockquote><pre><code>x = 1</code></pre><hr />`
      + `<figure><img src="${ownImage}" alt="chart" width="320" /><figcaption>Chart</figcaption></figure>`
      + `<table><thead><tr><th>A</th></tr></thead><tbody><tr><td colspan="2">1</td></tr></tbody></table>`
      + `<a href="https://bourse.example/a?b=1&amp;c=2" rel="noopener noreferrer" target="_blank">web</a> `
      + `<a href="mailto:help@bourse.local" rel="noopener noreferrer" target="_blank">mail</a>`);
  });

  it('gives the plain text for search and a summary cut at a word', () => {
    expect(plainText(sanitizeContentHtml('<p>a &amp; b</p><ul><li>one</li><li>two</li></ul><script>x</script>'))).toBe('a & b one two');
    expect(summaryOf('word '.repeat(60).trim(), 20)).toBe('word word word word…');
  });
});
