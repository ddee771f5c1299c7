/**
 * What changed between two submitted versions of a registration, by prompt: each answer before
 * and after as its review row reads it (the prompt as asked under that version's form), and the
 * documents replaced, added or removed (judged by the SHA-256 of their bytes, not their names).
 * Pure: the caller passes each version's answers, documents and the form it was answered under.
 */
import type { Answers } from '../model/schemaTypes';
import {
  allRows,
  reviewSections,
  standaloneNames,
  type ReviewForm,
  type ReviewRow,
} from './reviewRows';

/** A stored document of a version: its file name and the SHA-256 of its bytes. */
export interface VersionDocument {
  name: string;
  /** Null when the bytes were not at hand to hash (their name then decides). */
  sha256: string | null;
}

export interface VersionSide {
  /** The form this version was answered under (its schema hash's). */
  form: ReviewForm;
  answers: Answers;
  /** Documents by the answer's pointer or the multipart part that holds them. */
  documents: Readonly<Record<string, VersionDocument>>;
  /** Prompts sent with the answers, by pointer, when known. */
  prompts?: Readonly<Record<string, string>>;
}

/** One answer's text on one side; null when that version did not ask or hold it. */
export interface AnswerSide {
  prompt: string;
  text: string;
  sensitive: boolean;
}

export interface AnswerChange {
  pointer: string;
  before: AnswerSide | null;
  after: AnswerSide | null;
}

export interface DocumentChange {
  /** The document's key (the pointer of its answer, or its multipart part). */
  key: string;
  /** The prompt it answers, as the later version asks it (else the earlier one). */
  prompt: string;
  change: 'replaced' | 'added' | 'removed';
  before: VersionDocument | null;
  after: VersionDocument | null;
}

export interface VersionDiff {
  answers: AnswerChange[];
  documents: DocumentChange[];
}

/** A leaf row with its prompt as the diff names it (alone: a person's with the person). */
type NamedRow = ReviewRow & { named: string };

/** The answers of a version as its review reads them: each leaf row (files aside) by pointer. */
function leafRows(side: VersionSide): { rows: Map<string, NamedRow>; all: ReviewRow[] } {
  const sections = reviewSections(side.form, side.answers, { prompts: side.prompts ?? {} });
  const all = allRows(sections);
  const names = standaloneNames(sections);
  const rows = new Map<string, NamedRow>();
  for (const row of all) {
    if (row.children || row.items || row.file || !row.answered) continue;
    rows.set(row.pointer, { ...row, named: names.get(row.pointer) ?? row.prompt });
  }
  return { rows, all };
}

const sideOf = (row: NamedRow | undefined): AnswerSide | null =>
  row ? { prompt: row.named, text: row.text, sensitive: row.sensitive } : null;

/** The prompt of a document key: the file answer at that pointer or holding that part. */
function documentPrompt(rows: readonly ReviewRow[], key: string): string | undefined {
  return rows.find((row) => row.pointer === key || row.file?.part === key || row.signedPart === key)
    ?.prompt;
}

const sameBytes = (a: VersionDocument, b: VersionDocument) =>
  a.sha256 !== null || b.sha256 !== null ? a.sha256 === b.sha256 : a.name === b.name;

/**
 * The changes from `before` to `after`, answers in the later version's order (then those it no
 * longer holds, in the earlier one's), documents in the same way.
 */
export function versionDiff(before: VersionSide, after: VersionSide): VersionDiff {
  const old = leafRows(before);
  const next = leafRows(after);
  const answers: AnswerChange[] = [];
  for (const [pointer, row] of next.rows) {
    const was = old.rows.get(pointer);
    if (was && was.text === row.text) continue;
    answers.push({ pointer, before: sideOf(was), after: sideOf(row) });
  }
  for (const [pointer, row] of old.rows) {
    if (!next.rows.has(pointer)) answers.push({ pointer, before: sideOf(row), after: null });
  }
  const documents: DocumentChange[] = [];
  const keys = [...new Set([...Object.keys(after.documents), ...Object.keys(before.documents)])];
  for (const key of keys) {
    const was = before.documents[key] ?? null;
    const now = after.documents[key] ?? null;
    if (was && now && sameBytes(was, now)) continue;
    documents.push({
      key,
      prompt: documentPrompt(next.all, key) ?? documentPrompt(old.all, key) ?? key,
      change: was && now ? 'replaced' : now ? 'added' : 'removed',
      before: was,
      after: now,
    });
  }
  return { answers, documents };
}
