/**
 * Applications on the server (issue 17): the form's answers saved as the applicant works, its
 * files uploaded when chosen, resumed on any device. Routes under `/exchange/api/web` (and, as
 * the contract first named them, `/exchange/api`):
 *
 * - `GET applications/:formId` → `ApplicationResponse`
 * - `PUT applications/:formId` `SaveApplicationRequest` → `SaveApplicationResult`; a stale
 *   `baseRevision` → 409 `ApplicationConflict`
 * - `POST applications/:formId/files` multipart (`pointer`, then `file`) → `ApplicationFileResult`
 * - `DELETE applications/:formId/files?pointer=…` → 204
 */
import type { FileReference } from '../forms/model/types';

export type ApplicationStatus = 'draft' | 'submitted' | 'changes_requested';

/** A change staff asked for, by the question's pointer and its prompt as the form now asks it. */
export interface RequestedChange {
  path: string;
  prompt: string;
  note: string;
}

/** What changed in the form since the answers were saved (told once, then cleared by a save). */
export interface CarriedOver {
  /** Prompts of questions the form asks now that it did not ask then. */
  added: string[];
  /** Prompts (as now worded) of answered questions whose wording changed. */
  reworded: string[];
  /** Prompts (as then worded) of answers that no longer apply and were dropped. */
  dropped: string[];
}

export interface ApplicationView {
  formId: string;
  schemaHash: string;
  revision: number;
  /** ISO time of the last save. */
  savedAt: string;
  step: number | null;
  status: ApplicationStatus;
  /** Every answer, sensitive ones included (only ever sent to the applicant). */
  answers: Record<string, unknown>;
  /** The files the application holds, by the pointer of their question. */
  files: Record<string, FileReference>;
  changeRequest: {
    note: string;
    fields: RequestedChange[];
    /**
     * The registration's answers as submitted: what the request's rule compares with (change
     * mode derives what is editable from them, as the server's checks do).
     */
    submitted: Record<string, unknown>;
  } | null;
  carriedOver: CarriedOver | null;
}

export interface ApplicationResponse {
  application: ApplicationView | null;
}

export interface SaveApplicationRequest {
  answers: Record<string, unknown>;
  /** The revision the answers were edited from; 0 for the first save. */
  baseRevision: number;
  step?: number | null;
}

export interface SaveApplicationResult {
  revision: number;
  savedAt: string;
}

/** 409 on a stale base revision: the application as stored, for the browser to merge with. */
export interface ApplicationConflict {
  errorMessage: string;
  application: ApplicationView | null;
}

export interface ApplicationFileResult extends FileReference {
  pointer: string;
  revision: number;
}
