// Operator HTML in the back office, with the server's allow-list (server/domain/programs/content/sanitize.ts)
// mirrored here: an unsaved draft is parsed with DOMParser (an inert document: nothing in it runs or
// loads), walked, and only allowed elements and attributes are rebuilt, so the editor and the phone
// preview never hold markup the server would not keep. The preview draws the cleaned tree as React
// elements (never innerHTML). The server cleans again on save: this copy is for what the operator
// sees, not for safety of what is stored.
import { createElement, type ReactNode } from 'react';
import { isContentImage, isSafeContentLink } from '../../api/contract/content.ts';

const allowedTags = new Set([
  'p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'h2', 'h3', 'h4', 'ul', 'ol', 'li', 'blockquote', 'a', 'img',
  'figure', 'figcaption', 'hr', 'code', 'pre', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'caption',
]);
/** Elements that go with everything inside them; any other unknown element leaves its contents. */
const droppedWithContents = new Set([
  'script', 'style', 'textarea', 'option', 'noscript', 'iframe', 'object', 'embed', 'svg', 'math', 'template', 'title', 'head',
  'select', 'xmp', 'noembed', 'noframes', 'plaintext', 'button', 'input', 'form', 'link', 'meta', 'base', 'frame', 'frameset', 'audio', 'video',
]);
const voidTags = new Set(['br', 'hr', 'img']);


const smallNumber = (value: string | null) => (value !== null && /^[0-9]{1,4}$/.test(value) ? value : undefined);

/** The attributes an allowed element keeps, by tag; undefined drops the element (an image not ours). */
function keptAttributes(tag: string, element: Element): Record<string, string> | undefined {
  if (tag === 'a') {
    const href = element.getAttribute('href') ?? '';
    return isSafeContentLink(href) ? { href: href.trim(), rel: 'noopener noreferrer', target: '_blank' } : {};
  }
  if (tag === 'img') {
    const src = element.getAttribute('src') ?? '';
    if (!isContentImage(src)) return undefined;
    const attributes: Record<string, string> = { src: src.trim(), alt: element.getAttribute('alt') ?? '' };
    const width = smallNumber(element.getAttribute('width'));
    const height = smallNumber(element.getAttribute('height'));
    if (width) attributes.width = width;
    if (height) attributes.height = height;
    return attributes;
  }
  if (tag === 'td' || tag === 'th') {
    const attributes: Record<string, string> = {};
    for (const name of ['colspan', 'rowspan']) {
      const value = smallNumber(element.getAttribute(name));
      if (value) attributes[name] = value;
    }
    return attributes;
  }
  if (tag === 'ol') {
    const start = smallNumber(element.getAttribute('start'));
    return start ? { start } : {};
  }
  return {};
}

/** A cleaned tree: what the walker keeps of a parsed document. */
export type CleanNode = string | { tag: string; attributes: Record<string, string>; children: CleanNode[] };

function cleanChildren(parent: Node): CleanNode[] {
  const out: CleanNode[] = [];
  for (const node of Array.from(parent.childNodes)) {
    if (node.nodeType === Node.TEXT_NODE) {
      if (node.textContent) out.push(node.textContent);
      continue;
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue;
    const element = node as Element;
    const tag = element.tagName.toLowerCase() === 'h1' ? 'h2' : element.tagName.toLowerCase();
    if (droppedWithContents.has(tag)) continue;
    if (!allowedTags.has(tag)) {
      out.push(...cleanChildren(element));
      continue;
    }
    const attributes = keptAttributes(tag, element);
    if (!attributes) continue;
    out.push({ tag, attributes, children: voidTags.has(tag) ? [] : cleanChildren(element) });
  }
  return out;
}

/** Parses HTML inertly and keeps what the allow-list allows. */
export function cleanTree(html: string): CleanNode[] {
  const parsed = new DOMParser().parseFromString(`<!doctype html><body>${html}`, 'text/html');
  return cleanChildren(parsed.body);
}

/** The cleaned tree as DOM nodes of `document` (for the editor: built, never parsed into the page). */
export function cleanFragment(html: string, document: Document): DocumentFragment {
  const fragment = document.createDocumentFragment();
  const build = (nodes: CleanNode[], parent: Node) => {
    for (const node of nodes) {
      if (typeof node === 'string') {
        parent.appendChild(document.createTextNode(node));
        continue;
      }
      const element = document.createElement(node.tag);
      for (const [name, value] of Object.entries(node.attributes)) element.setAttribute(name, value);
      build(node.children, element);
      parent.appendChild(element);
    }
  };
  build(cleanTree(html), fragment);
  return fragment;
}

/** The allow-listed HTML of `html` (what the preview shows of a draft). */
export function sanitizeContentHtml(html: string): string {
  const holder = document.implementation.createHTMLDocument('').createElement('div');
  holder.appendChild(cleanFragment(html, holder.ownerDocument));
  return holder.innerHTML;
}

/** Whether a body has anything a reader would see: text or an image. */
export function hasContent(html: string): boolean {
  const walk = (nodes: CleanNode[]): boolean => nodes.some((node) => (typeof node === 'string'
    ? node.trim() !== ''
    : node.tag === 'img' || node.tag === 'hr' || walk(node.children)));
  return walk(cleanTree(html));
}

const reactAttributes = (tag: string, attributes: Record<string, string>) => {
  const props: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'colspan') props.colSpan = Number(value);
    else if (name === 'rowspan') props.rowSpan = Number(value);
    else if (name === 'start' && tag === 'ol') props.start = Number(value);
    else props[name] = value;
  }
  if (tag === 'img') props.loading = 'lazy';
  return props;
};

/** Containers whose whitespace between children React would refuse (a text node in a <tr>). */
const noTextInside = new Set(['table', 'thead', 'tbody', 'tfoot', 'tr', 'ul', 'ol']);

function toReact(nodes: CleanNode[], keyPrefix: string, parentTag = ''): ReactNode[] {
  const kept = noTextInside.has(parentTag) ? nodes.filter((node) => typeof node !== 'string' || node.trim() !== '') : nodes;
  return kept.map((node, index) => {
    if (typeof node === 'string') return node;
    const key = `${keyPrefix}${index}`;
    const props = { key, ...reactAttributes(node.tag, node.attributes) };
    return voidTags.has(node.tag) ? createElement(node.tag, props) : createElement(node.tag, props, ...toReact(node.children, `${key}.`, node.tag));
  });
}

/** Sanitized (or not yet sanitized) HTML drawn as React elements through the allow-list. */
export function RichTextView({ html, className }: { html: string; className?: string }) {
  return <div className={className} data-testid="rich-text-view">{toReact(cleanTree(html), '')}</div>;
}
