// The back office's rich-text editor: a contenteditable area with a toolbar (bold, italic,
// underline, headings, lists, quote, link, image). The toolbar edits the DOM itself through Range
// operations (document.execCommand is deprecated, differs between browsers and writes <b>, <div>
// and inline styles), so each button makes the same markup everywhere: <strong>, <em>, <u>, <h2>,
// <h3>, <p>, <ul>/<ol> with <li>, <blockquote>, <a href> (http and https only) and <img> of an
// uploaded content image. What it is given and what is pasted goes through the allow-list
// (ContentHtml.tsx) and is built as nodes, never set as HTML; the server sanitizes again on save.
import { useCallback, useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent, type ReactNode } from 'react';
import { useLingui } from '@lingui/react/macro';
import { Alert, Button, Input, Modal, Space, Tooltip } from 'antd';
import { cleanFragment, hasContent } from './ContentHtml.tsx';

// ─── DOM operations (pure functions of the editor's root and a range in it) ───

type InlineTag = 'strong' | 'em' | 'u';
export type BlockTag = 'p' | 'h2' | 'h3' | 'blockquote';
export type ListTag = 'ul' | 'ol';

const leafBlockTags = new Set(['P', 'H2', 'H3', 'H4', 'BLOCKQUOTE', 'LI', 'PRE', 'FIGCAPTION', 'TD', 'TH', 'CAPTION']);
const sameInline: Record<InlineTag, string[]> = { strong: ['STRONG', 'B'], em: ['EM', 'I'], u: ['U'] };

const inside = (root: Node, node: Node | null) => !!node && (node === root || root.contains(node));

function closestWithin(node: Node | null, root: HTMLElement, tags: string[]): HTMLElement | undefined {
  for (let current: Node | null = node; current && current !== root; current = current.parentNode) {
    if (current.nodeType === Node.ELEMENT_NODE && tags.includes((current as Element).tagName)) return current as HTMLElement;
  }
  return undefined;
}

const isLeafBlock = (element: Element) => leafBlockTags.has(element.tagName)
  && !Array.from(element.children).some((child) => leafBlockTags.has(child.tagName));

/** Keeps every piece of text in a block: loose text and inline elements at the top go into a <p>. */
export function ensureBlocks(root: HTMLElement): void {
  const document = root.ownerDocument;
  let paragraph: HTMLElement | undefined;
  for (const node of Array.from(root.childNodes)) {
    const isBlock = node.nodeType === Node.ELEMENT_NODE
      && /^(P|H2|H3|H4|BLOCKQUOTE|UL|OL|PRE|FIGURE|HR|TABLE)$/.test((node as Element).tagName);
    if (isBlock) {
      paragraph = undefined;
      continue;
    }
    if (node.nodeType === Node.TEXT_NODE && !node.textContent?.trim() && !paragraph) {
      node.remove();
      continue;
    }
    if (node.nodeType === Node.ELEMENT_NODE && (node as Element).tagName === 'DIV') {
      // A browser's own new line: a <div> becomes a paragraph.
      const replacement = document.createElement('p');
      replacement.append(...Array.from(node.childNodes));
      node.replaceWith(replacement);
      paragraph = undefined;
      continue;
    }
    if (!paragraph) {
      paragraph = document.createElement('p');
      root.insertBefore(paragraph, node);
    }
    paragraph.appendChild(node);
  }
  if (!root.firstChild) {
    const empty = document.createElement('p');
    empty.appendChild(document.createElement('br'));
    root.appendChild(empty);
  }
}

/** The innermost blocks the range touches, in document order. */
export function blocksInRange(root: HTMLElement, range: Range): HTMLElement[] {
  const found = Array.from(root.querySelectorAll<HTMLElement>('p, h2, h3, h4, blockquote, li, pre, figcaption, td, th, caption'))
    .filter((element) => isLeafBlock(element) && range.intersectsNode(element));
  if (found.length === 0) {
    const own = closestWithin(range.startContainer, root, Array.from(leafBlockTags));
    if (own) found.push(own);
  }
  return found;
}

/** The part of `range` inside `block`. */
function rangeInBlock(range: Range, block: HTMLElement): Range {
  const part = block.ownerDocument.createRange();
  part.selectNodeContents(block);
  if (block.contains(range.startContainer) || block === range.startContainer) part.setStart(range.startContainer, range.startOffset);
  if (block.contains(range.endContainer) || block === range.endContainer) part.setEnd(range.endContainer, range.endOffset);
  return part;
}

const unwrap = (element: Element) => element.replaceWith(...Array.from(element.childNodes));

function dropEmpty(element: Element | undefined) {
  if (element && element.textContent === '' && !element.querySelector('img, br')) element.remove();
}

/** Whether every piece of selected text is already in `tag` (so the button takes it off). */
export function inlineActive(root: HTMLElement, range: Range, tag: InlineTag): boolean {
  if (range.collapsed) return !!closestWithin(range.startContainer, root, sameInline[tag]);
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let any = false;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!range.intersectsNode(node) || !node.textContent?.trim()) continue;
    if (node === range.endContainer && range.endOffset === 0) continue;
    if (node === range.startContainer && range.startOffset === node.textContent.length) continue;
    any = true;
    if (!closestWithin(node, root, sameInline[tag])) return false;
  }
  return any;
}

/** Bold, italic or underline on the selected text, block by block; off again when all of it has it. */
export function toggleInline(root: HTMLElement, range: Range, tag: InlineTag): Range | undefined {
  if (range.collapsed) return undefined;
  const active = inlineActive(root, range, tag);
  const document = root.ownerDocument;
  const result = document.createRange();
  const parts = blocksInRange(root, range).map((block) => ({ block, part: rangeInBlock(range, block) }));
  parts.forEach(({ block, part }, index) => {
    if (part.collapsed) return;
    const fragment = part.extractContents();
    fragment.querySelectorAll(sameInline[tag].join(',')).forEach(unwrap);
    let inserted: Node[];
    if (active) {
      inserted = Array.from(fragment.childNodes);
      const around = closestWithin(part.startContainer, block, sameInline[tag]);
      if (around) {
        // Split the element around the cut so the selection leaves it.
        const rest = document.createRange();
        rest.setStart(part.startContainer, part.startOffset);
        rest.setEndAfter(around);
        const tail = rest.extractContents();
        const tailElement = tail.firstChild;
        around.after(fragment, tail);
        dropEmpty(around);
        dropEmpty(tailElement instanceof Element ? tailElement : undefined);
      } else {
        part.insertNode(fragment);
      }
    } else {
      const wrapper = document.createElement(tag);
      wrapper.appendChild(fragment);
      part.insertNode(wrapper);
      inserted = [wrapper];
    }
    // A cut at an element's edge leaves it empty (<strong></strong>): it goes.
    block.querySelectorAll('strong, b, em, i, u, s, a, code').forEach((element) => dropEmpty(element));
    if (inserted.length) {
      if (index === 0) result.setStartBefore(inserted[0]);
      result.setEndAfter(inserted[inserted.length - 1]);
    }
  });
  root.normalize();
  return result;
}

function liftListItem(item: HTMLElement): HTMLElement {
  const list = item.parentElement!;
  const document = item.ownerDocument;
  const paragraph = document.createElement('p');
  paragraph.append(...Array.from(item.childNodes));
  const after = Array.from(list.children).slice(Array.from(list.children).indexOf(item) + 1);
  item.remove();
  list.after(paragraph);
  if (after.length) {
    const tail = document.createElement(list.tagName.toLowerCase());
    tail.append(...after);
    paragraph.after(tail);
  }
  if (list.children.length === 0) list.remove();
  return paragraph;
}

const renamed = (element: HTMLElement, tag: string) => {
  const replacement = element.ownerDocument.createElement(tag);
  replacement.append(...Array.from(element.childNodes));
  element.replaceWith(replacement);
  return replacement;
};

/** Turns the selected blocks into paragraphs, headings or a quote; the same button again makes them paragraphs. */
export function setBlock(root: HTMLElement, range: Range, tag: BlockTag): HTMLElement[] {
  const blocks = blocksInRange(root, range);
  const upper = tag.toUpperCase();
  const all = blocks.length > 0 && blocks.every((block) => block.tagName === upper
    || (tag === 'blockquote' && block.parentElement?.tagName === 'BLOCKQUOTE'));
  const target = all ? 'p' : tag;
  return blocks.map((block) => {
    let current = block.tagName === 'LI' ? liftListItem(block) : block;
    if (current.parentElement?.tagName === 'BLOCKQUOTE' && current.parentElement !== root) {
      const quote = current.parentElement;
      unwrap(quote);
    }
    if (current.tagName.toLowerCase() !== target) current = renamed(current, target);
    return current;
  });
}

/** Makes the selected blocks a bulleted or numbered list; the same button again makes them paragraphs. */
export function toggleList(root: HTMLElement, range: Range, tag: ListTag): void {
  const blocks = blocksInRange(root, range);
  if (blocks.length === 0) return;
  const upper = tag.toUpperCase();
  if (blocks.every((block) => block.tagName === 'LI' && block.parentElement?.tagName === upper)) {
    for (const block of blocks) liftListItem(block);
    return;
  }
  const document = root.ownerDocument;
  const list = document.createElement(tag);
  const topLevel = (node: HTMLElement) => {
    let current: HTMLElement = node;
    while (current.parentElement && current.parentElement !== root) current = current.parentElement;
    return current;
  };
  const first = topLevel(blocks[0]);
  first.before(list);
  for (const block of blocks) {
    const top = topLevel(block);
    const item = block.tagName === 'LI' ? block : document.createElement('li');
    if (item !== block) item.append(...Array.from(block.childNodes));
    list.appendChild(item);
    if (top !== item && top.isConnected && (top.textContent === '' && !top.querySelector('img'))) top.remove();
    else if (block !== item && block.isConnected) block.remove();
  }
  // A list left empty by moving its items goes; two lists of the same kind side by side join.
  root.querySelectorAll('ul, ol').forEach((element) => {
    if (element.children.length === 0) element.remove();
  });
  const next = list.nextElementSibling;
  if (next && next.tagName === upper) {
    list.append(...Array.from(next.children));
    next.remove();
  }
}

/** Whether a link address may be used: an absolute http or https URL with a host. */
export function linkAllowed(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Links the selected text to `href` (already checked); with nothing selected, inserts the address as a link. */
export function insertLink(root: HTMLElement, range: Range, href: string): void {
  const document = root.ownerDocument;
  const existing = closestWithin(range.commonAncestorContainer, root, ['A']);
  if (existing) {
    existing.setAttribute('href', href);
    return;
  }
  if (range.collapsed) {
    const link = document.createElement('a');
    link.setAttribute('href', href);
    link.textContent = href;
    range.insertNode(link);
    return;
  }
  for (const block of blocksInRange(root, range)) {
    const part = rangeInBlock(range, block);
    if (part.collapsed) continue;
    const fragment = part.extractContents();
    fragment.querySelectorAll('a').forEach(unwrap);
    const link = document.createElement('a');
    link.setAttribute('href', href);
    link.appendChild(fragment);
    part.insertNode(link);
    block.querySelectorAll('strong, b, em, i, u, s, a, code').forEach((element) => dropEmpty(element));
  }
}

/** Takes the link off the text the range is in. */
export function removeLink(root: HTMLElement, range: Range): void {
  const existing = closestWithin(range.commonAncestorContainer, root, ['A']);
  if (existing) unwrap(existing);
  else blocksInRange(root, range).forEach((block) => block.querySelectorAll('a').forEach((link) => {
    if (range.intersectsNode(link)) unwrap(link);
  }));
}

/** Puts an image where the caret is (replacing a selection), or in a new paragraph at the end. */
export function insertImage(root: HTMLElement, range: Range | undefined, src: string, alt: string): HTMLImageElement {
  const document = root.ownerDocument;
  const image = document.createElement('img');
  image.setAttribute('src', src);
  image.setAttribute('alt', alt);
  if (range && inside(root, range.startContainer) && blocksInRange(root, range).length > 0) {
    range.deleteContents();
    range.insertNode(image);
  } else {
    const paragraph = document.createElement('p');
    paragraph.appendChild(image);
    root.appendChild(paragraph);
  }
  return image;
}

/** The editor's HTML, or '' when it holds nothing a reader would see. */
export function editorHtml(root: HTMLElement): string {
  const html = root.innerHTML;
  return hasContent(html) ? html : '';
}

// ─── The component ───

/** Images the server accepts for content, and the largest it takes (server/domain/kernel/uploads.ts uploadBytesMax). */
const imageTypes = ['image/jpeg', 'image/png', 'image/webp'];
const imageBytesMax = 8 * 1024 * 1024;

export interface RichTextEditorProps {
  value: string;
  onChange(html: string): void;
  /** Uploads an image and resolves with its address (a content image). */
  onUploadImage(file: File): Promise<string>;
  /** The editable area's accessible name. */
  label: string;
  invalid?: boolean;
  testId?: string;
}

/** Small line icons for the tools that have no letter (the machine's fonts may have no emoji). */
const icon = (path: string) => (
  <svg viewBox="0 0 16 16" width="14" height="14" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round"
    strokeLinejoin="round" aria-hidden focusable="false" style={{ verticalAlign: '-2px' }}><path d={path} /></svg>
);
const icons = {
  link: icon('M6.5 9.5l3-3M7 4.5l1.2-1.2a2.8 2.8 0 014 4L11 8.5M9 11.5l-1.2 1.2a2.8 2.8 0 01-4-4L5 7.5'),
  unlink: icon('M7 4.5l1.2-1.2a2.8 2.8 0 014 4L11 8.5M9 11.5l-1.2 1.2a2.8 2.8 0 01-4-4L5 7.5M2 2l12 12'),
  image: icon('M2 3h12v10H2zM2 11l3.5-3.5 3 3 2-2L14 12M10.5 6.2a.8.8 0 100-.1'),
};

type ToolKey = 'bold' | 'italic' | 'underline' | 'h2' | 'h3' | 'p' | 'ul' | 'ol' | 'quote' | 'link' | 'unlink' | 'image';

export function RichTextEditor({ value, onChange, onUploadImage, label, invalid, testId = 'rich-text' }: RichTextEditorProps) {
  const { t } = useLingui();
  const rootRef = useRef<HTMLDivElement>(null);
  const lastEmitted = useRef<string | null>(null);
  const savedRange = useRef<Range | undefined>(undefined);
  const fileRef = useRef<HTMLInputElement>(null);
  const [active, setActive] = useState<Partial<Record<ToolKey, boolean>>>({});
  const [linkOpen, setLinkOpen] = useState(false);
  const [linkText, setLinkText] = useState('https://');
  const [linkError, setLinkError] = useState('');
  const [imageError, setImageError] = useState('');
  const [uploading, setUploading] = useState(false);

  // A value from outside (another item, another language) replaces the content, rebuilt through the allow-list.
  useEffect(() => {
    const root = rootRef.current;
    if (!root || value === lastEmitted.current) return;
    root.replaceChildren(cleanFragment(value, root.ownerDocument));
    ensureBlocks(root);
    lastEmitted.current = value;
    savedRange.current = undefined;
  }, [value]);

  const emit = useCallback(() => {
    const root = rootRef.current!;
    // Moving loose text into a paragraph would drop the caret to the start: it is put back where it was.
    const selection = root.ownerDocument.getSelection();
    const caret = selection && selection.rangeCount > 0 && selection.isCollapsed && inside(root, selection.anchorNode)
      ? { node: selection.anchorNode!, offset: selection.anchorOffset } : undefined;
    ensureBlocks(root);
    if (caret && caret.node.isConnected && selection && (selection.anchorNode !== caret.node || selection.anchorOffset !== caret.offset)) {
      selection.collapse(caret.node, caret.offset);
    }
    const html = editorHtml(root);
    lastEmitted.current = html;
    onChange(html);
  }, [onChange]);

  const currentRange = (): Range | undefined => {
    const root = rootRef.current!;
    const selection = root.ownerDocument.getSelection();
    if (selection && selection.rangeCount > 0 && inside(root, selection.getRangeAt(0).commonAncestorContainer)) {
      return selection.getRangeAt(0).cloneRange();
    }
    return savedRange.current?.cloneRange();
  };

  const select = (range: Range | undefined) => {
    const selection = rootRef.current?.ownerDocument.getSelection();
    if (!range || !selection) return;
    selection.removeAllRanges();
    selection.addRange(range);
    savedRange.current = range.cloneRange();
  };

  const refreshActive = useCallback(() => {
    const root = rootRef.current;
    const selection = root?.ownerDocument.getSelection();
    if (!root || !selection || selection.rangeCount === 0) return;
    const range = selection.getRangeAt(0);
    if (!inside(root, range.commonAncestorContainer)) return;
    savedRange.current = range.cloneRange();
    const block = blocksInRange(root, range)[0];
    setActive({
      bold: inlineActive(root, range, 'strong'), italic: inlineActive(root, range, 'em'), underline: inlineActive(root, range, 'u'),
      h2: block?.tagName === 'H2', h3: block?.tagName === 'H3', quote: !!block?.closest('blockquote'),
      ul: block?.tagName === 'LI' && block.parentElement?.tagName === 'UL', ol: block?.tagName === 'LI' && block.parentElement?.tagName === 'OL',
      link: !!closestWithin(range.commonAncestorContainer, root, ['A']),
    });
  }, []);

  useEffect(() => {
    const document = rootRef.current!.ownerDocument;
    document.addEventListener('selectionchange', refreshActive);
    return () => document.removeEventListener('selectionchange', refreshActive);
  }, [refreshActive]);

  const run = (operation: (root: HTMLElement, range: Range) => Range | void | unknown) => {
    const root = rootRef.current!;
    ensureBlocks(root);
    const range = currentRange();
    if (!range) return;
    const result = operation(root, range);
    emit();
    if (result instanceof Range) select(result);
    else root.focus();
    refreshActive();
  };

  const openLink = () => {
    savedRange.current = currentRange();
    const existing = savedRange.current && closestWithin(savedRange.current.commonAncestorContainer, rootRef.current!, ['A']);
    setLinkText(existing?.getAttribute('href') ?? 'https://');
    setLinkError('');
    setLinkOpen(true);
  };

  const applyLink = () => {
    const href = linkAllowed(linkText);
    if (!href) {
      setLinkError(t`Only http and https links are allowed (https://…).`);
      return;
    }
    const range = savedRange.current;
    if (!range) {
      setLinkError(t`Place the cursor in the text first.`);
      return;
    }
    insertLink(rootRef.current!, range, href);
    emit();
    setLinkOpen(false);
  };

  const chooseImage = async (file: File | undefined) => {
    if (!file) return;
    setImageError('');
    if (!imageTypes.includes(file.type)) {
      setImageError(t`Choose a JPEG, PNG or WebP image.`);
      return;
    }
    if (file.size > imageBytesMax) {
      setImageError(t`The image is larger than 8 MB.`);
      return;
    }
    const range = currentRange();
    setUploading(true);
    try {
      const src = await onUploadImage(file);
      insertImage(rootRef.current!, range, src, file.name.replace(/\.[a-z0-9]+$/i, ''));
      emit();
    } catch (error) {
      setImageError(error instanceof Error && error.message ? error.message : t`The image could not be uploaded.`);
    } finally {
      setUploading(false);
    }
  };

  const tools: { key: ToolKey; label: string; text: ReactNode; onClick(): void }[] = [
    { key: 'bold', label: t`Bold`, text: 'B', onClick: () => run((root, range) => toggleInline(root, range, 'strong')) },
    { key: 'italic', label: t`Italic`, text: 'I', onClick: () => run((root, range) => toggleInline(root, range, 'em')) },
    { key: 'underline', label: t`Underline`, text: 'U', onClick: () => run((root, range) => toggleInline(root, range, 'u')) },
    { key: 'h2', label: t`Heading`, text: 'H2', onClick: () => run((root, range) => setBlock(root, range, 'h2')) },
    { key: 'h3', label: t`Subheading`, text: 'H3', onClick: () => run((root, range) => setBlock(root, range, 'h3')) },
    { key: 'p', label: t`Normal text`, text: '¶', onClick: () => run((root, range) => setBlock(root, range, 'p')) },
    { key: 'ul', label: t`Bulleted list`, text: '•', onClick: () => run((root, range) => toggleList(root, range, 'ul')) },
    { key: 'ol', label: t`Numbered list`, text: '1.', onClick: () => run((root, range) => toggleList(root, range, 'ol')) },
    { key: 'quote', label: t`Quote`, text: '❝', onClick: () => run((root, range) => setBlock(root, range, 'blockquote')) },
    { key: 'link', label: t`Link`, text: icons.link, onClick: openLink },
    { key: 'unlink', label: t`Remove link`, text: icons.unlink, onClick: () => run((root, range) => removeLink(root, range)) },
    { key: 'image', label: t`Image`, text: icons.image, onClick: () => {
      savedRange.current = currentRange();
      fileRef.current?.click();
    } },
  ];

  const onKeyDown = (event: KeyboardEvent) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey) return;
    const key = event.key.toLowerCase();
    const tag = key === 'b' ? 'strong' : key === 'i' ? 'em' : key === 'u' ? 'u' : undefined;
    if (!tag) return;
    event.preventDefault();
    run((root, range) => toggleInline(root, range, tag));
  };

  const onPaste = (event: ClipboardEvent) => {
    event.preventDefault();
    const root = rootRef.current!;
    const range = currentRange();
    if (!range) return;
    const html = event.clipboardData.getData('text/html');
    const fragment = html
      ? cleanFragment(html, root.ownerDocument)
      : root.ownerDocument.createTextNode(event.clipboardData.getData('text/plain'));
    range.deleteContents();
    const last = fragment instanceof DocumentFragment ? fragment.lastChild : fragment;
    range.insertNode(fragment);
    if (last) {
      const after = root.ownerDocument.createRange();
      after.setStartAfter(last);
      select(after);
    }
    emit();
  };

  return (
    <div className={`content-editor${invalid ? ' content-editor-invalid' : ''}`} data-testid={testId}>
      <Space.Compact className="content-editor-toolbar" role="toolbar" aria-label={t`Formatting`}>
        {tools.map((tool) => (
          <Tooltip key={tool.key} title={tool.label}>
            <Button size="small" aria-label={tool.label} aria-pressed={active[tool.key] ?? false} type={active[tool.key] ? 'primary' : 'default'}
              loading={tool.key === 'image' && uploading}
              onMouseDown={(event) => event.preventDefault()} onClick={tool.onClick}>
              <span aria-hidden>{tool.text}</span>
            </Button>
          </Tooltip>
        ))}
      </Space.Compact>
      <input ref={fileRef} type="file" accept={imageTypes.join(',')} style={{ display: 'none' }} data-testid={`${testId}-file`} aria-label={t`Image file`}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void chooseImage(file);
        }} />
      {imageError && <Alert type="error" showIcon role="alert" title={imageError} style={{ margin: '8px 0' }} />}
      <div ref={rootRef} className="content-editor-area" contentEditable suppressContentEditableWarning role="textbox" aria-multiline
        aria-label={label} aria-invalid={invalid || undefined} data-testid={`${testId}-area`}
        onInput={emit} onKeyDown={onKeyDown} onPaste={onPaste} onKeyUp={refreshActive} onMouseUp={refreshActive}
        onFocus={() => {
          const document = rootRef.current!.ownerDocument;
          // Enter starts a <p>, not a <div>, where the browser supports choosing it.
          if (typeof document.execCommand === 'function') {
            try {
              document.execCommand('defaultParagraphSeparator', false, 'p');
            } catch {
              // jsdom and old browsers: ensureBlocks turns a <div> into a <p> anyway.
            }
          }
        }} />
      <Modal open={linkOpen} title={t`Link`} okText={t`Apply`} onOk={applyLink} onCancel={() => setLinkOpen(false)} destroyOnHidden>
        <Input aria-label={t`Link address`} value={linkText} status={linkError ? 'error' : undefined} autoFocus inputMode="url"
          onChange={(event) => {
            setLinkText(event.target.value);
            setLinkError('');
          }} onPressEnter={applyLink} data-testid={`${testId}-link-input`} />
        {linkError && <Alert type="error" showIcon role="alert" title={linkError} style={{ marginTop: 8 }} />}
      </Modal>
    </div>
  );
}

/** Whether a draft body is empty for a reader (no text, no image). */
export const bodyEmpty = (html: string) => !hasContent(html);
