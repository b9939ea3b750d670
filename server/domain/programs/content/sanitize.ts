// Operator HTML (notices, announcements, help, news) is cleaned with an allow-list before it is
// stored (issue 21): what is not on the list is dropped, never escaped into the page. Allowed are
// text structure (paragraphs, headings h2–h4, lists, quotes, code, tables, rules), emphasis, links
// over http, https or mailto (opened in a new tab without an opener or referrer), and images only
// of our own content images (/api/public/content/image/<32 hex>). No attribute carries style,
// class, id or an event handler; script, style, iframe, svg, forms and the like go with their
// contents. `plainText` gives the text of a cleaned body for search and summaries.
import sanitizeHtml from 'sanitize-html';
import { apiPrefix } from '../../../../src/api/contract/paths.ts';
import { isContentImage, isSafeContentLink } from '../../../../src/api/contract/content.ts';

/** The path our own content images are served at (contentPaths.image under /api). */
export const contentImagePath = (id: string) => `${apiPrefix}/public/content/image/${id}`;

const allowedTags = [
  'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a', 'img',
  'figure', 'figcaption', 'hr', 'code', 'pre', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
];


const options: sanitizeHtml.IOptions = {
  allowedTags,
  allowedAttributes: {
    a: ['href', 'rel', 'target'],
    img: ['src', 'alt', 'width', 'height'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start'],
  },
  // Tags whose contents go with them (everything else not allowed keeps its text).
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'title', 'head', 'select', 'xmp', 'noembed', 'noframes', 'plaintext'],
  disallowedTagsMode: 'discard',
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: [] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  allowedClasses: {},
  allowVulnerableTags: false,
  parseStyleAttributes: false,
  transformTags: {
    // A link keeps its text; it links only to http(s) or mailto, in a new tab without opener.
    a: (tagName, attribs): sanitizeHtml.Tag => {
      const href = attribs.href ?? '';
      if (!isSafeContentLink(href)) return { tagName, attribs: {} };
      return { tagName, attribs: { href: href.trim(), rel: 'noopener noreferrer', target: '_blank' } };
    },
    // The page's title is the item's own: a first-level heading becomes a second-level one.
    h1: 'h2',
  },
  exclusiveFilter: (frame) => {
    if (frame.tag === 'img') return !isContentImage(frame.attribs.src ?? '');
    return false;
  },
};

/** The allow-listed HTML of an operator's body (what is stored and served). */
export function sanitizeContentHtml(html: string): string {
  return sanitizeHtml(html, options);
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };

/** The plain text of sanitized HTML: block ends become spaces, entities decoded, spaces collapsed. */
export function plainText(html: string): string {
  const text = sanitizeHtml(html.replace(/<\/(p|h2|h3|h4|li|blockquote|pre|figcaption|td|th|tr|caption)>|<br\s*\/?>|<hr\s*\/?>/gi, '$& '), {
    allowedTags: [], allowedAttributes: {}, nonTextTags: options.nonTextTags,
  });
  return text.replace(/&(amp|lt|gt|quot|#39|apos|nbsp);/g, (_match, name: string) => entities[name] ?? '')
    .replace(/\s+/g, ' ').trim();
}

/** A summary of at most `lengthMax` characters from the text (cut at a word where it can be). */
export function summaryOf(text: string, lengthMax = 160): string {
  if (text.length <= lengthMax) return text;
  const cut = text.slice(0, lengthMax - 1);
  // The cut falls between two words already: keep every whole word.
  if (/\s/.test(text[lengthMax - 1]!)) return `${cut.trimEnd()}…`;
  const space = cut.lastIndexOf(' ');
  return `${(space > lengthMax / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
