import { createContext, useContext, useSyncExternalStore } from 'react';
import type { Registry } from '@rjsf/utils';
import type { FileReference } from '../../shared/forms/model/types';
import { fromPointer, toPointer } from '../../shared/forms/model/pointer';

/**
 * Per-form state that lives beside rjsf's form data: the chosen `File`s (never inside the
 * answers, which hold only `{name, type, size}`) and a read-only view of the committed answers
 * for widgets that depend on a sibling (the region follows its country). It reaches widgets
 * through rjsf's `registry.formContext`; the object is created once per form, so it never
 * causes a re-render by itself.
 */
export interface FormEngine {
  files: FilesStore;
  answers: AnswersStore;
  writer: AnswerWriter;
  /** Each file question's upload as it goes (only where files upload when chosen). */
  uploads: UploadsStore;
  /** Sends a chosen file to the server at once; absent where files travel with the submission. */
  uploader?: FileUploader;
  /** The optional objects the person added and has not answered in yet (see AddedObjects). */
  added: AddedObjects;
}

/** Where files go when chosen (the applicant's application on the server). */
export interface FileUploader {
  /**
   * Sends `file` as the answer at `pointer`, reporting the bytes sent; resolves with the file as
   * the server holds it, rejects with the reason (ApiError, NetworkError).
   */
  upload(
    pointer: string,
    file: File,
    onProgress: (sent: number, total: number) => void,
  ): Promise<FileReference>;
  /** Removes the file the server holds for `pointer`. */
  remove(pointer: string): Promise<void>;
}

/** One file question's upload: sending (bytes so far), or what went wrong. */
export type UploadState =
  | { kind: 'uploading'; sent: number; total: number }
  | {
      kind: 'failed';
      message: string;
      /** Sending the same file again may work. */ retry: boolean;
    };

/** The uploads under way or failed, by the pointer of their answer. */
export class UploadsStore {
  private readonly states = new Map<string, UploadState>();
  private readonly listeners = new Set<() => void>();
  private version = 0;
  get = (pointer: string): UploadState | undefined => this.states.get(pointer);
  /** Changes whenever some upload's state does (a store snapshot for a view of them all). */
  revision = (): number => this.version;
  /** The pointers of the files still being sent. */
  sending(): string[] {
    return [...this.states].filter(([, state]) => state.kind === 'uploading').map(([p]) => p);
  }
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  set(pointer: string, state: UploadState | undefined): void {
    if (state) this.states.set(pointer, state);
    else if (!this.states.delete(pointer)) return;
    this.version++;
    for (const listener of this.listeners) listener();
  }
  /** Some file is still being sent. */
  busy(): boolean {
    return [...this.states.values()].some((state) => state.kind === 'uploading');
  }
}

/**
 * Files chosen in upload widgets, keyed by the JSON pointer of their answer ('/photoId'), and the
 * pointers whose file the server already holds (uploaded when chosen, or on an earlier visit):
 * those bytes are never sent again.
 */
export class FilesStore {
  private readonly files = new Map<string, File>();
  private readonly held = new Set<string>();
  get(pointer: string): File | undefined {
    return this.files.get(pointer);
  }
  /** A new choice (or none): the server holds no file for it yet. */
  set(pointer: string, file: File | undefined): void {
    this.held.delete(pointer);
    if (file) this.files.set(pointer, file);
    else this.files.delete(pointer);
  }
  /** The server holds the file of `pointer` (its bytes stay out of the submission). */
  hold(pointer: string): void {
    this.held.add(pointer);
    // The bytes are the server's now: the page need not keep them.
    this.files.delete(pointer);
  }
  isHeld(pointer: string): boolean {
    return this.held.has(pointer);
  }
  /** The held pointers whose answer is still present in `answers`. */
  heldFor(answers: unknown): Set<string> {
    return new Set(
      [...this.held].filter((pointer) => getByPointer(answers, pointer) !== undefined),
    );
  }
  /** The files whose answer is still present in `answers` (a hidden field's file is not sent). */
  forAnswers(answers: unknown): Record<string, File> {
    const out: Record<string, File> = {};
    for (const [pointer, file] of this.files) {
      if (getByPointer(answers, pointer) !== undefined) out[pointer] = file;
    }
    return out;
  }
  clear(): void {
    this.files.clear();
    this.held.clear();
  }
}

/** The latest value of something, observable with `useSyncExternalStore`. */
export class ValueStore<T> {
  private readonly listeners = new Set<() => void>();
  constructor(private value: T) {}
  get = (): T => this.value;
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };
  set(value: T): void {
    if (value === this.value) return;
    this.value = value;
    for (const listener of this.listeners) listener();
  }
}

/**
 * The optional objects (rjsf's optional data controls) the person added, by pointer. An object
 * added but not yet answered in is `{}`, which rjsf's live omit drops from the answers at once
 * (an optional object with nothing in it is absent, and is sent so): this keeps its questions on
 * screen until the person removes it again.
 */
export class AddedObjects extends ValueStore<ReadonlySet<string>> {
  constructor() {
    super(new Set());
  }
  has = (pointer: string): boolean => this.get().has(pointer);
  add(pointer: string): void {
    this.set(new Set([...this.get(), pointer]));
  }
  /** Forgets `pointer` and the optional objects inside it. */
  remove(pointer: string): void {
    this.set(new Set([...this.get()].filter((p) => p !== pointer && !p.startsWith(`${pointer}/`))));
  }
}

/** The answers as last committed by rjsf. */
export class AnswersStore extends ValueStore<unknown> {
  constructor() {
    super(undefined);
  }
}

/**
 * Writes from a widget to other answers (an LEI lookup filling the business name and address).
 * The form that owns the answers connects itself; each write is one ordinary change of that
 * answer (`undefined` removes it), so validation, drafts and conditions follow as for typing.
 */
export class AnswerWriter {
  private apply: ((pointer: string, value: unknown) => void) | undefined;
  /** A form is drawn to take the writes (not on a review step). */
  get connected(): boolean {
    return this.apply !== undefined;
  }
  connect(apply: (pointer: string, value: unknown) => void): () => void {
    this.apply = apply;
    return () => {
      if (this.apply === apply) this.apply = undefined;
    };
  }
  /** Answers by JSON pointer ('/bizName', '/nfaBylaw1101/notCftcOrNfaMemberExplain'). */
  write(answers: Record<string, unknown>): void {
    for (const [pointer, value] of Object.entries(answers)) this.apply?.(pointer, value);
  }
}

export function createFormEngine(): FormEngine {
  return {
    files: new FilesStore(),
    answers: new AnswersStore(),
    writer: new AnswerWriter(),
    uploads: new UploadsStore(),
    added: new AddedObjects(),
  };
}

/** The form engine of the form a widget belongs to (SchemaForm passes it as `formContext`). */
export function engineOf(registry: Registry): FormEngine | undefined {
  const context: unknown = registry.formContext;
  if (context && typeof context === 'object' && 'engine' in context) {
    return (context as { engine: FormEngine }).engine;
  }
  return undefined;
}

/** JSON pointer of the field being rendered, provided by our FieldTemplate ('' = the root). */
export const FieldPointerContext = createContext('');

export function useFieldPointer(): string {
  return useContext(FieldPointerContext);
}

/** Re-renders only when the answer at `pointer` changes. */
export function useAnswerAt(engine: FormEngine | undefined, pointer: string): unknown {
  const store = engine?.answers;
  return useSyncExternalStore(store ? store.subscribe : noopSubscribe, () =>
    store ? getByPointer(store.get(), pointer) : undefined,
  );
}

const noopSubscribe = () => () => {};

export function getByPointer(value: unknown, pointer: string): unknown {
  let current = value;
  for (const part of fromPointer(pointer)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

/** Pointer of a sibling property: siblingPointer('/mailingAddress/region', 'country'). */
export function siblingPointer(pointer: string, name: string): string {
  const parts = fromPointer(pointer);
  parts.pop();
  return toPointer([...parts, name]);
}
