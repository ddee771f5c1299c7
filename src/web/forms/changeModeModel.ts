/**
 * The change mode the session carries (issue 17): which answers of a reopened registration may
 * change, and the reviewer's note on each question staff asked to change. No React, nothing of
 * the engine's views: the session holds it and changeMode.tsx draws it, so the forms room reads
 * one way (session below the views).
 */
import type { CompiledForm } from '../../shared/forms/model/compiledForm';
import type { Answers } from '../../shared/forms/model/schemaTypes';
import { isEditableInChangeMode, isWithin } from '../../shared/forms/walk/changeScope';

/** One question staff asked to change. */
export interface RequestedChangeView {
  path: string;
  prompt: string;
  note: string;
}

export class ChangeMode {
  private readonly editable = new Map<string, boolean>();

  constructor(
    readonly form: CompiledForm,
    /**
     * The answers as submitted (the registration's, not the application's as since saved): what
     * decides which questions a change makes appear, as the server's rule judges it.
     */
    readonly submitted: Answers,
    readonly note: string | null,
    readonly fields: readonly RequestedChangeView[],
  ) {}

  get marked(): string[] {
    return this.fields.map((field) => field.path);
  }

  /** Whether the applicant may change the answer at `pointer` ('' is the whole form). */
  isEditable(pointer: string): boolean {
    let found = this.editable.get(pointer);
    if (found === undefined) {
      found = isEditableInChangeMode(this.form, this.submitted, this.marked, pointer);
      this.editable.set(pointer, found);
    }
    return found;
  }

  /** Whether something at or inside `pointer` may change (a list row holding a marked answer). */
  hasEditableWithin(pointer: string): boolean {
    return this.isEditable(pointer) || this.marked.some((mark) => isWithin(mark, pointer));
  }

  /** The request on exactly this question, if any. */
  requestAt(pointer: string): RequestedChangeView | undefined {
    return this.fields.find((field) => field.path === pointer);
  }
}
