// The body of a notice, announcement, help article or news item. The server cleaned it with an
// allow-list before storing it (server/domain/programs/content/sanitize.ts); the app does not trust that
// alone: it parses the HTML with DOMParser (an inert document: nothing runs, nothing loads) and
// builds React elements only for the elements and attributes on its own list, so no markup ever
// reaches the page as markup. Links go through the app's outside-link page, images are our own
// content images only, loaded lazily.
import { Fragment, createElement, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { linkAction } from '../../lib/links.ts';
import { apiPrefix } from '../../api/contract/paths.ts';

/** Elements drawn as themselves (attributes are never copied: each is read below when allowed). */
const plainTags = new Set([
  'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h2', 'h3', 'h4', 'ul', 'li', 'blockquote', 'figure', 'figcaption',
  'hr', 'code', 'pre', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'caption',
]);
/** Elements dropped with everything inside them; any other unknown element keeps only its text. */
const droppedTags = new Set(['script', 'style', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'noscript', 'textarea',
  'select', 'option', 'title', 'head', 'form', 'input', 'button', 'link', 'meta', 'base', 'frame', 'frameset', 'audio', 'video', 'canvas']);
const voidTags = new Set(['br', 'hr', 'img']);
/** Deeper nesting than this is cut (its text kept flat): a crafted body cannot blow the stack. */
export const nestingMax = 40;
/** At most this many nodes are drawn. */
export const nodesMax = 20_000;

const contentImage = new RegExp(`^${apiPrefix.replace(/\//g, '\\/')}\\/public\\/content\\/image\\/[0-9a-f]{32}$`);

/** A small whole number from an attribute (colspan, rowspan, start), or undefined. */
function smallInteger(value: string | null, max: number): number | undefined {
  if (value === null || !/^\d{1,4}$/.test(value.trim())) return undefined;
  const number = Number(value.trim());
  return number >= 1 && number <= max ? number : undefined;
}

interface Walk { nodes: number }

function renderChildren(parent: Node, depth: number, walk: Walk): ReactNode[] {
  const out: ReactNode[] = [];
  parent.childNodes.forEach((child, index) => {
    const node = renderNode(child, depth, walk, index);
    if (node !== null) out.push(node);
  });
  return out;
}

function renderLink(element: Element, children: ReactNode[], key: number): ReactNode {
  const href = (element.getAttribute('href') ?? '').trim();
  if (/^mailto:[^\s<>"]+$/i.test(href)) return <a key={key} href={href}>{children}</a>;
  const action = linkAction(4, href);
  if (action.kind === 'outlink') return <Link key={key} to={action.path} className="rich-link">{children}</Link>;
  // Anything else (javascript:, data:, relative) keeps its text and links nowhere.
  return <Fragment key={key}>{children}</Fragment>;
}

function renderImage(element: Element, key: number): ReactNode {
  const src = (element.getAttribute('src') ?? '').trim();
  if (!contentImage.test(src)) return null;
  const width = smallInteger(element.getAttribute('width'), 4000);
  const height = smallInteger(element.getAttribute('height'), 4000);
  return <img key={key} src={src} alt={element.getAttribute('alt') ?? ''} loading="lazy" decoding="async" width={width} height={height} />;
}

function renderElement(element: Element, depth: number, walk: Walk, key: number): ReactNode {
  const tag = element.localName.toLowerCase();
  if (droppedTags.has(tag)) return null;
  if (tag === 'img') return renderImage(element, key);
  const children = voidTags.has(tag) ? [] : renderChildren(element, depth + 1, walk);
  const heading = tag === 'h1' ? 'h2' : tag === 'h5' || tag === 'h6' ? 'h4' : tag;
  if (tag === 'a') return renderLink(element, children, key);
  if (tag === 'ol') return <ol key={key} start={smallInteger(element.getAttribute('start'), 9999)}>{children}</ol>;
  if (tag === 'td' || tag === 'th') {
    return createElement(tag, {
      key, colSpan: smallInteger(element.getAttribute('colspan'), 50), rowSpan: smallInteger(element.getAttribute('rowspan'), 500),
    }, ...children);
  }
  if (plainTags.has(heading)) return voidTags.has(heading) ? createElement(heading, { key }) : createElement(heading, { key }, ...children);
  // An element not on the list keeps its text, not its markup.
  return <Fragment key={key}>{children}</Fragment>;
}

function renderNode(node: Node, depth: number, walk: Walk, key: number): ReactNode {
  walk.nodes += 1;
  if (walk.nodes > nodesMax) return null;
  if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? '';
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const element = node as Element;
  if (depth >= nestingMax) return droppedTags.has(element.localName.toLowerCase()) ? null : (element.textContent ?? '');
  return renderElement(element, depth, walk, key);
}

/** React elements of a sanitized HTML body (exported for tests). */
export function renderRichText(html: string): ReactNode[] {
  if (!html) return [];
  const document = new DOMParser().parseFromString(html, 'text/html');
  return renderChildren(document.body, 0, { nodes: 0 });
}

export function RichText({ html, className = 'rich-text' }: { html: string; className?: string }) {
  return <div className={className}>{renderRichText(html)}</div>;
}
