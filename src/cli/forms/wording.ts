/**
 * The wording of the forms as compliance staff review it: every prompt, option label, help text,
 * placeholder and message in the schema files, where it lives (file and JSON pointer), and what
 * changed between two versions of the files.
 */
import { canonicalJson } from '../../shared/forms/model/bundleForm';
import { RULE_KEYWORDS } from '../../shared/forms/validation/keywords';
import { toPointer } from '../../shared/forms/model/pointer';
import { isPlainObject } from '../../shared/forms/model/schemaTypes';
import { commonFiles, formFile, formFolders, type FileTree } from './readFormFiles';

type WordingKind =
  | 'form'
  | 'prompt'
  | 'option'
  | 'help'
  | 'placeholder'
  | 'message'
  /** A wizard step's title, section heading, next label, signature prompt or introduction. */
  | 'step'
  /** A widget's or field's own words (`ui:options`): a button label, a status line, a column. */
  | 'control';

/** `x-registration`'s words users read (`choice`, `page`, `submitted`): labels, titles, texts. */
const REGISTRATION_WORDS = new Set([
  'label',
  'description',
  'title',
  'otherChoice',
  'text',
  'button',
]);

/** `ui:options` keys whose strings users read: `addLabel`, `foundText`, a column's `title`. */
const isControlWording = (key: string, keys: string[]) =>
  keys.includes('ui:options') &&
  (/(Label|Text)$/.test(key) || (key === 'title' && keys.includes('columns')));

/** The words of a step (`ui:steps`) and of its sections. */
const STEP_KEYS = new Set(['title', 'next', 'signaturePrompt', 'description']);

interface WordingEntry {
  file: string;
  pointer: string;
  kind: WordingKind;
  text: string;
  /** Identifies the entry across versions: the pointer, with array items named by content. */
  key: string;
}

/** Keys whose string values (or nested string values) are messages users read. */
const MESSAGE_KEYS = new Set<string>([
  'errorMessage',
  'x-submission-required',
  ...Object.keys(RULE_KEYWORDS),
]);

/** An array item's stable name: an option by its value, a condition by its `if`. */
function itemKey(item: unknown, index: number): string {
  if (isPlainObject(item) && 'const' in item) return `[const=${canonicalJson(item.const)}]`;
  if (isPlainObject(item) && 'if' in item) return `[if=${canonicalJson(item.if)}]`;
  if (isPlainObject(item) && typeof item.id === 'string') return `[id=${item.id}]`;
  return String(index);
}

function collectMessages(
  value: unknown,
  keys: string[],
  ids: string[],
  push: (kind: WordingKind, text: string, keys: string[], ids: string[]) => void,
) {
  if (typeof value === 'string') push('message', value, keys, ids);
  else if (isPlainObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      collectMessages(child, [...keys, key], [...ids, key], push);
    }
  }
}

/** The wording of one schema or uiSchema file's content. */
export function wordingOf(file: string, content: unknown): WordingEntry[] {
  const entries: WordingEntry[] = [];
  const push = (kind: WordingKind, text: string, keys: string[], ids: string[]) =>
    entries.push({ file, pointer: toPointer(keys), kind, text, key: toPointer(ids) });
  const isUi = file.endsWith('.ui.json');
  const visit = (node: unknown, keys: string[], ids: string[], inChoice: boolean) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) =>
        visit(item, [...keys, String(i)], [...ids, itemKey(item, i)], inChoice),
      );
      return;
    }
    if (!isPlainObject(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const at = [...keys, key];
      const id = [...ids, key];
      if (isUi) {
        if (ids[0] === 'ui:steps' && STEP_KEYS.has(key) && typeof value === 'string') {
          push('step', value, at, id);
        } else if (key === 'ui:placeholder' && typeof value === 'string')
          push('placeholder', value, at, id);
        else if ((key === 'ui:help' || key === 'ui:description') && typeof value === 'string') {
          push('help', value, at, id);
        } else if (key === 'ui:title' && typeof value === 'string') push('prompt', value, at, id);
        else if (typeof value === 'string' && isControlWording(key, keys)) {
          push('control', value, at, id);
        } else visit(value, at, id, false);
      } else if (MESSAGE_KEYS.has(key)) {
        collectMessages(value, at, id, push);
      } else if (key === 'prompt' && keys.at(-2) === 'x-signatures' && typeof value === 'string') {
        push('prompt', value, at, id); // a step's signature prompt (the business wizard's)
      } else if (keys[0] === 'x-registration' && keys.length === 2) {
        // The registration's own words: its choice, its page, its confirmation.
        if (typeof value === 'string' && REGISTRATION_WORDS.has(key)) {
          push('control', value, at, id);
        }
      } else if (key === 'title' && typeof value === 'string') {
        push(keys.length === 0 ? 'form' : inChoice ? 'option' : 'prompt', value, at, id);
      } else if (key === 'description' && typeof value === 'string') {
        push('help', value, at, id);
      } else if (key === 'const' || key === 'enum' || key === '$comment' || key === 'x-sections') {
        // values and notes, not wording
      } else {
        visit(value, at, id, key === 'oneOf' || key === 'anyOf');
      }
    }
  };
  visit(content, [], [], false);
  return entries;
}

/** The files holding wording: common schemas, then each form's schema and uiSchema. */
function wordingFiles(tree: FileTree): string[] {
  return [
    ...commonFiles(tree),
    ...formFolders(tree).flatMap((formId) => [formFile(formId, 'schema'), formFile(formId, 'ui')]),
  ];
}

/** Every wording entry of a version of the files; unreadable files are reported, not skipped. */
export function readWording(tree: FileTree): WordingEntry[] {
  return wordingFiles(tree).flatMap((file) => {
    const text = tree.read(file);
    if (text === undefined) return [];
    try {
      return wordingOf(file, JSON.parse(text));
    } catch (error) {
      throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
    }
  });
}

type Change = 'added' | 'changed' | 'removed';

interface WordingChange {
  change: Change;
  before?: WordingEntry;
  after?: WordingEntry;
}

/** What was added, changed (same place, other text or kind) or removed, in file order. */
export function diffWording(before: WordingEntry[], after: WordingEntry[]): WordingChange[] {
  const id = (entry: WordingEntry) => `${entry.file}#${entry.key}`;
  const old = new Map(before.map((entry) => [id(entry), entry]));
  const now = new Set(after.map(id));
  const changes: WordingChange[] = [];
  for (const entry of after) {
    const previous = old.get(id(entry));
    if (!previous) changes.push({ change: 'added', after: entry });
    else if (previous.text !== entry.text) {
      changes.push({ change: 'changed', before: previous, after: entry });
    }
  }
  for (const entry of before) {
    if (!now.has(id(entry))) changes.push({ change: 'removed', before: entry });
  }
  const order = new Map([...before, ...after].map((entry, index) => [id(entry), index]));
  const rank = (c: WordingChange) => order.get(id((c.after ?? c.before)!)) ?? 0;
  const fileOf = (c: WordingChange) => (c.after ?? c.before)!.file;
  return changes.sort((a, b) => fileOf(a).localeCompare(fileOf(b)) || rank(a) - rank(b));
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ');

/** A Markdown table: readable in a terminal, pasteable into a review or a ticket. */
function table(header: string[], rows: string[][]): string {
  return [header, header.map(() => '---'), ...rows]
    .map((row) => `| ${row.map(cell).join(' | ')} |`)
    .join('\n');
}

export function wordingTable(entries: WordingEntry[]): string {
  return table(
    ['file', 'pointer', 'kind', 'text'],
    entries.map((e) => [e.file, e.pointer, e.kind, e.text]),
  );
}

export function changesTable(changes: WordingChange[]): string {
  return table(
    ['change', 'file', 'pointer', 'kind', 'before', 'after'],
    changes.map(({ change, before, after }) => {
      const entry = (after ?? before)!;
      return [change, entry.file, entry.pointer, entry.kind, before?.text ?? '', after?.text ?? ''];
    }),
  );
}
