/**
 * A Scrivener 3 binder (the project's `.scrivx` XML) as a tree: the Draft (Manuscript), the
 * Research folder, the Trash and any other top-level folders, each item with its type, title,
 * label, status, icon and word target; the project's label and status names; its draft target.
 * Read with @xmldom/xmldom so it works in the import worker, which has no DOMParser
 * (docs/decisions/0013-scrivener-import.md).
 */
import { DOMParser } from '@xmldom/xmldom';
import { MESSAGES, ScrivenerReadError } from './source';

export type BinderItemType = 'DraftFolder' | 'ResearchFolder' | 'TrashFolder' | 'Folder' | 'Text' | 'Image' | 'PDF' | 'WebArchive' | 'Other' | (string & {});

export interface BinderItem {
  uuid: string;
  type: BinderItemType;
  /** As Scrivener shows it: "Untitled" where the binder has none. */
  title: string;
  labelId: string | null;
  statusId: string | null;
  iconFileName: string | null;
  /** The document's word target (`TextSettings/Target Type="Words"`), if set. */
  targetWords: number | null;
  /** `MetaData/FileExtension`: the file behind a picture, PDF or other item. */
  fileExtension: string | null;
  children: BinderItem[];
}

export interface Binder {
  /** `Creator`: SCRMAC-… or SCRWIN-… (which platform saved it last). */
  creator: string;
  items: BinderItem[];
  labels: Record<string, string>;
  statuses: Record<string, string>;
  /** The project's manuscript target in words, if one is set. */
  draftTargetWords: number | null;
}

/** Only the element children of a node, by tag name (never descendants). */
function childElements(node: Element, tag?: string): Element[] {
  const out: Element[] = [];
  for (let child = node.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1 && (tag === undefined || (child as Element).tagName === tag)) out.push(child as Element);
  }
  return out;
}

const childText = (node: Element | undefined, tag: string): string | null => {
  if (!node) return null;
  const el = childElements(node, tag)[0];
  return el ? (el.textContent ?? '') : null;
};

function readItem(el: Element, depth: number): BinderItem {
  if (depth > 64) throw new ScrivenerReadError(MESSAGES.damaged);
  const meta = childElements(el, 'MetaData')[0];
  const textSettings = childElements(el, 'TextSettings')[0];
  const target = textSettings ? childElements(textSettings, 'Target')[0] : undefined;
  const targetWords = target && (target.getAttribute('Type') ?? 'Words') === 'Words' ? Number(target.textContent) : NaN;
  const id = (name: string) => {
    const value = childText(meta, name)?.trim();
    return value && value !== '-1' ? value : null;
  };
  const children = childElements(el, 'Children')[0];
  return {
    uuid: el.getAttribute('UUID') ?? el.getAttribute('ID') ?? '',
    type: el.getAttribute('Type') ?? 'Text',
    title: (childText(el, 'Title') ?? '').replace(/\s+/g, ' ').trim() || 'Untitled',
    labelId: id('LabelID'),
    statusId: id('StatusID'),
    iconFileName: childText(meta, 'IconFileName'),
    targetWords: Number.isFinite(targetWords) && targetWords > 0 ? targetWords : null,
    fileExtension: childText(meta, 'FileExtension'),
    children: children ? childElements(children, 'BinderItem').map((c) => readItem(c, depth + 1)) : [],
  };
}

function namesOf(root: Element, settings: string, list: string, entry: string): Record<string, string> {
  const out: Record<string, string> = {};
  const el = childElements(root, settings)[0];
  const items = el ? childElements(el, list)[0] : undefined;
  if (!items) return out;
  for (const item of childElements(items, entry)) {
    const id = item.getAttribute('ID');
    if (id !== null && id !== '-1') out[id] = (item.textContent ?? '').trim();
  }
  return out;
}

/** Reads the binder; a file that is not one, or is damaged, is refused with the message the author sees. */
export function readBinder(xml: string): Binder {
  // Entities could expand without bound (or reach outside): a binder never declares any.
  if (/<!ENTITY/i.test(xml)) throw new ScrivenerReadError(MESSAGES.damaged);
  let broken = false;
  const doc = new DOMParser({
    errorHandler: { warning: () => undefined, error: () => (broken = true), fatalError: () => (broken = true) },
  }).parseFromString(xml, 'text/xml');
  const root = doc.documentElement as unknown as Element | null;
  if (broken || !root || root.tagName !== 'ScrivenerProject') throw new ScrivenerReadError(MESSAGES.damaged);
  const version = Number(root.getAttribute('Version') ?? '0');
  if (version < 2) throw new ScrivenerReadError(MESSAGES.scrivener2);
  const binder = childElements(root, 'Binder')[0];
  if (!binder) throw new ScrivenerReadError(MESSAGES.damaged);
  const targets = childElements(root, 'ProjectTargets')[0];
  const draftTarget = targets ? Number(childText(targets, 'DraftTarget')) : NaN;
  return {
    creator: root.getAttribute('Creator') ?? '',
    items: childElements(binder, 'BinderItem').map((el) => readItem(el, 0)),
    labels: namesOf(root, 'LabelSettings', 'Labels', 'Label'),
    statuses: namesOf(root, 'StatusSettings', 'StatusItems', 'Status'),
    draftTargetWords: Number.isFinite(draftTarget) && draftTarget > 0 ? draftTarget : null,
  };
}
