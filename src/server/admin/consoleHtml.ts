/**
 * The staff console's HTML: plain server-rendered pages, one small stylesheet and, on a
 * registration's page, one same-origin script (`console.js`: Reveal without reloading; the CSP
 * allows no inline script). The frame is built here with every piece of user content through
 * `escapeHtml`; a registration's answers are drawn by React (`RegistrationAnswers.tsx`).
 */
import type { AdminRegistrationSummary } from '../../shared/api/admin';
import { firm } from '../../shared/config/firm';
import type { AuditAction } from '../audit/recordAuditEvent';
import type { RegistrationAuditEvent } from '../audit/registrationAuditEvents';
import type { RegistrationDetail } from './registrationView';
import { CHANGES_FORM_ID } from './RegistrationAnswers';
import { versionChangesId } from './RegistrationVersions';

export const CONSOLE_BASE = '/clearing/admin';
export const CONSOLE_CSS_PATH = `${CONSOLE_BASE}/console.css`;
export const CONSOLE_JS_PATH = `${CONSOLE_BASE}/console.js`;
/** The hidden form field carrying the CSRF token (the `csrf_token` cookie's value). */
export const CSRF_FIELD = '_csrf';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const e = escapeHtml;

/**
 * An email as the console shows it: whole, but free to break after its @ where a column is
 * narrow (never inside a word), so a long address neither overflows into the next column nor
 * reads as two.
 */
export function emailHtml(email: string): string {
  return e(email).replace('@', '@<wbr>');
}

function page(options: {
  title: string;
  body: string;
  signedInAs?: string | undefined;
  /** Load the console's script (a registration's page). */
  script?: boolean;
}): string {
  const { title, body, signedInAs, script } = options;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${e(title)} · ${e(firm.displayName)} Admin</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="${CONSOLE_CSS_PATH}">
${script ? `<script src="${CONSOLE_JS_PATH}" defer></script>\n` : ''}</head>
<body>
<header class="top">
<a class="brand" href="${signedInAs ? CONSOLE_BASE : '/clearing/home'}">${e(firm.displayName)} · Clearing Admin</a>
${signedInAs ? `<span class="who">Signed in as ${e(signedInAs)} · <a href="/clearing/logout">Logout</a></span>` : ''}
</header>
<main>
<h1>${e(title)}</h1>
${body}
</main>
</body>
</html>`;
}

const utc = (iso: string | null): string =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : '—';

/** A clearing id (`NCF-100001`) kept on one line: never broken at its hyphen. */
const clearingId = (id: string) => `<span class="nowrap">${e(id)}</span>`;

const personName = (r: AdminRegistrationSummary) =>
  [r.firstName, r.lastName].filter(Boolean).join(' ') || '(no name)';

/** A registration as the queue lists it: `business` when its form registers a business. */
export type ConsoleRegistration = AdminRegistrationSummary & { business?: boolean };

/** Who registered: a business by its name, a person by theirs. */
const registrantName = (r: ConsoleRegistration) =>
  r.business ? r.organizationName || personName(r) : personName(r);

/** The registrant's name cell: a business's name with the person who registered it. */
const nameCell = (r: ConsoleRegistration) =>
  r.business
    ? `${e(registrantName(r))}<br><span class="muted">registered by ${e(personName(r))}</span>`
    : e(personName(r));

import { AWAITING_REVIEW, OPEN_FOR_DECISION } from './review';

export { AWAITING_REVIEW, OPEN_FOR_DECISION };

const STATUS_LABELS: Record<string, string> = {
  pending: 'Awaiting review',
  resubmitted: 'Resubmitted, awaiting review',
  changes_requested: 'Changes requested',
  approved: 'Approved',
  rejected: 'Rejected',
};

const statusBadge = (status: string) =>
  `<span class="status status-${e(status)}">${e(STATUS_LABELS[status] ?? status)}</span>`;

/** The applicant as staff name them: name and email. */
const applicantName = (r: ConsoleRegistration) => `${registrantName(r)} (${r.email})`;

function registrationTable(rows: ConsoleRegistration[], decided: boolean): string {
  if (!rows.length) {
    return `<p>${decided ? 'No decisions yet.' : 'No registrations are awaiting review.'}</p>`;
  }
  const head = decided
    ? '<th scope="col">Name</th><th scope="col">Email</th><th scope="col">Clearing ID</th><th scope="col">Status</th><th scope="col">Decided</th><th scope="col">By</th><th scope="col"><span class="visually-hidden">Open</span></th>'
    : '<th scope="col">Name</th><th scope="col">Email</th><th scope="col">Clearing ID</th><th scope="col">Form</th><th scope="col">Submitted</th><th scope="col"><span class="visually-hidden">Open</span></th>';
  const body = rows
    .map((r) => {
      const link = `<a href="${CONSOLE_BASE}/registrations/${e(r.registrationId)}">${decided ? 'View' : 'Review'}<span class="visually-hidden"> ${e(registrantName(r))}</span></a>`;
      return decided
        ? `<tr><td>${nameCell(r)}</td><td>${e(r.email)}</td><td>${clearingId(r.clearingOrgId)}</td><td>${statusBadge(r.status)}</td><td>${e(utc(r.reviewedAt))}</td><td>${e(r.reviewedBy ?? 'operator')}</td><td>${link}</td></tr>`
        : `<tr><td>${nameCell(r)}</td><td>${e(r.email)}</td><td>${clearingId(r.clearingOrgId)}</td><td>${e(r.formId)}</td><td>${e(utc(r.submittedAt))}</td><td>${link}</td></tr>`;
    })
    .join('\n');
  return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
}

export function listPage(
  pending: ConsoleRegistration[],
  decided: ConsoleRegistration[],
  signedInAs: string,
  waiting: ConsoleRegistration[] = [],
): string {
  return page({
    title: 'Registrations',
    signedInAs,
    body: `<section aria-labelledby="pending-heading">
<h2 id="pending-heading">Awaiting review (${pending.length})</h2>
${registrationTable(pending, false)}
</section>
${
  waiting.length
    ? `<section aria-labelledby="waiting-heading">
<h2 id="waiting-heading">Waiting for the applicant's changes (${waiting.length})</h2>
${registrationTable(waiting, false)}
</section>`
    : ''
}
<section aria-labelledby="decided-heading">
<h2 id="decided-heading">Recent decisions</h2>
${registrationTable(decided, true)}
</section>`,
  });
}

interface DetailContext {
  registration: RegistrationDetail & { business?: boolean };
  /** The answers, persons and documents, drawn by React (`renderAnswers`). */
  answersHtml: string;
  /** An answer's prompt by pointer (audit rows name the answer revealed). */
  promptOf: (pointer: string) => string | undefined;
  /** A document's title by multipart part. */
  documentTitleOf: (part: string) => string | undefined;
  /** Whether the marks beside the answers belong to a request-changes form on this page. */
  marking: boolean;
  /** Why the signed-in reviewer may not decide on this registration (their own), or null. */
  selfReview?: string | null | undefined;
  csrfToken: string;
  signedInAs: string;
  notice?: string | undefined;
  error?: string | undefined;
  /** Sections drawn elsewhere, after the documents (signature evidence, versions), as HTML. */
  extra?: string | undefined;
  /** The latest version when there are several: a link at the top leads to what it changed. */
  latestVersion?: number | undefined;
  /** This registration's audit trail, newest first. */
  auditEvents: RegistrationAuditEvent[];
}

/**
 * What each audit action reads as on a registration's page: every action recorded against a
 * registration has its words (the type makes a new one name them).
 */
const AUDIT_ACTION_LABELS: Record<
  | Exclude<Extract<AuditAction, `registration.${string}`>, 'registration.user'>
  | Extract<AuditAction, `application.${string}`>
  | 'esign.consented',
  string
> = {
  'application.created': 'Started the application',
  'application.saved': 'Saved the application',
  'application.file-uploaded': 'Uploaded a file',
  'application.file-removed': 'Removed a file',
  'application.change-refused': 'Refused a change outside the request',
  'esign.consented': 'Gave the e-sign consent',
  'registration.submitted': 'Submitted',
  'registration.resubmitted': 'Submitted again (the same answers)',
  'registration.changes-made': 'Resubmitted with the changes asked for',
  'registration.viewed': 'Viewed in the console',
  'registration.revealed': 'Revealed a sensitive answer',
  'registration.document-downloaded': 'Downloaded a document',
  'registration.changes-requested': 'Requested changes',
  'registration.approved': 'Approved',
  'registration.rejected': 'Rejected',
};

const actionLabel = (action: string): string =>
  Object.hasOwn(AUDIT_ACTION_LABELS, action)
    ? AUDIT_ACTION_LABELS[action as keyof typeof AUDIT_ACTION_LABELS]
    : action;

/** Where an event came from, in words: staff's tools, or the applicant's step a refusal met. */
const VIA_LABELS: Record<string, string> = {
  console: 'through the staff console',
  api: 'through the admin API',
  cli: 'through the command line',
  save: 'on a save',
  upload: 'on an upload',
  removal: 'on a removal',
  resubmission: 'on the resubmission',
};

function auditEventRow(ctx: DetailContext, event: RegistrationAuditEvent): string {
  const who =
    event.actor.kind === 'staff'
      ? e(event.actor.email)
      : event.actor.kind === 'applicant'
        ? 'the applicant'
        : 'an operator';
  const notes: string[] = [];
  const { via, field, fields, documentId, inline, demo, version } = event.detail;
  if (typeof version === 'number') notes.push(`version ${version}`);
  if (typeof via === 'string') notes.push(e(VIA_LABELS[via] ?? `through ${via}`));
  if (typeof field === 'string') notes.push(e(ctx.promptOf(field) ?? field));
  if (Array.isArray(fields) && fields.length) {
    const named = fields.filter((f): f is string => typeof f === 'string');
    notes.push(`marked: ${named.map((f) => e(ctx.promptOf(f) ?? f)).join(', ')}`);
  }
  if (typeof documentId === 'string') {
    const document = ctx.registration.documents.find((d) => d.id === documentId);
    const title = document ? (ctx.documentTitleOf(document.part) ?? document.part) : null;
    notes.push(`${title ? e(title) : 'a document'}${inline === true ? ' (preview)' : ''}`);
  }
  if (demo === true) notes.push('seeded demo data');
  return `<tr><td>${event.seq}</td><td>${e(utc(event.at))}</td><td>${e(actionLabel(event.action))}</td><td>${who}</td><td>${notes.join('; ')}</td></tr>`;
}

function auditSection(ctx: DetailContext): string {
  // Rows written before issue 26 recorded a submission twice (this one beside
  // `registration.submitted`, in the same transaction): shown once.
  const rows = ctx.auditEvents
    .filter((event) => event.action !== 'application.submitted')
    .map((event) => auditEventRow(ctx, event))
    .join('');
  return `<h2 id="audit-heading">Audit trail</h2>
<p class="muted">The applicant's work on the application (saves once per step or minute, uploads, removals, the e-sign consent, refused changes) and every submission, view, reveal, download and decision on this registration, newest first. The trail cannot be edited; <code>npm run admin -- verify-audit</code> checks it.</p>
<table class="audit" aria-labelledby="audit-heading"><thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Details</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${e(name)}" value="${e(value)}">`;
}

export function detailPage(ctx: DetailContext): string {
  const r = ctx.registration;
  const facts: [string, string][] = [
    ['Status', statusBadge(r.status)],
    ['Email', emailHtml(r.email)],
    ['Organization', `${e(r.organizationName)} (${clearingId(r.clearingOrgId)})`],
    ['Form', `<code>${e(r.formId)}</code>`],
    ['Wording version (schema hash)', `<code>${e(r.schemaHash)}</code>`],
    ['Submitted', e(utc(r.submittedAt))],
  ];
  if (r.status === 'changes_requested') {
    facts.push([
      'Changes requested',
      `${e(utc(r.reviewedAt))} by ${e(r.reviewedBy ?? 'operator')}`,
    ]);
    if (r.reason) facts.push(['What to change (shown to the applicant)', e(r.reason)]);
  } else if (!AWAITING_REVIEW.includes(r.status)) {
    facts.push(['Decided', `${e(utc(r.reviewedAt))} by ${e(r.reviewedBy ?? 'operator')}`]);
    if (r.reason) facts.push(['Reason', e(r.reason)]);
  }
  const action = `${CONSOLE_BASE}/registrations/${e(r.registrationId)}`;
  const open = OPEN_FOR_DECISION.includes(r.status);
  // The marks beside the answers belong to this form (their `form` attribute names it).
  const changes = ctx.marking
    ? `<form method="post" action="${action}/changes" id="${CHANGES_FORM_ID}">
${hidden(CSRF_FIELD, ctx.csrfToken)}
<label for="note">A note on the whole application (shown to the applicant and emailed)</label>
<p class="muted" id="note-hint">Mark the answers and documents to change with “Mark” beside each; their notes are sent with this one.</p>
<textarea id="note" name="note" rows="3" maxlength="2000" aria-describedby="note-hint"></textarea>
<button type="submit" class="changes">Request changes</button>
</form>`
    : '';
  const decision =
    open && ctx.selfReview
      ? `<section aria-labelledby="decision-heading" class="decision">
<h2 id="decision-heading">Decision</h2>
<p>${e(ctx.selfReview)}</p>
</section>`
      : open
        ? `<section aria-labelledby="decision-heading" class="decision">
<h2 id="decision-heading">Decision</h2>
<form method="get" action="${action}/approve">
<button type="submit" class="approve">Approve…</button>
</form>
${changes}
<form method="post" action="${action}/decision">
${hidden(CSRF_FIELD, ctx.csrfToken)}${hidden('decision', 'reject')}
<label for="reason">Reason for rejecting (required to reject; shown to the applicant and emailed)</label>
<textarea id="reason" name="reason" rows="3" maxlength="2000" required></textarea>
<button type="submit" class="reject">Reject</button>
</form>
</section>`
        : '';
  const notice = ctx.notice ? `<p class="notice" role="status">${e(ctx.notice)}</p>` : '';
  const error = ctx.error ? `<p class="error" role="alert">${e(ctx.error)}</p>` : '';
  return page({
    title: `${registrantName(r)}: registration`,
    signedInAs: ctx.signedInAs,
    script: true,
    body: `<p><a href="${CONSOLE_BASE}">← All registrations</a></p>
${notice}${error}
<dl class="facts">${facts.map(([k, v]) => `<div><dt>${e(k)}</dt><dd>${v}</dd></div>`).join('')}</dl>
${versionLinks(open, ctx.latestVersion)}
${ctx.answersHtml}
${ctx.extra ?? ''}
${decision}
${auditSection(ctx)}`,
  });
}

/** The links under the facts: to what the latest version changed, to the decision. */
function versionLinks(open: boolean, latestVersion: number | undefined): string {
  const links = [
    latestVersion
      ? `<a href="#${versionChangesId(latestVersion)}">What changed in version ${latestVersion} ↓</a>`
      : '',
    open ? '<a href="#decision-heading">Go to the decision ↓</a>' : '',
  ].filter(Boolean);
  return links.length ? `<p>${links.join(' · ')}</p>` : '';
}

/**
 * Asks staff to confirm an approval, naming the applicant (no script: a page of its own, whose
 * form carries `confirmed`, without which the server does not approve).
 */
export function approveConfirmPage(ctx: {
  registration: ConsoleRegistration;
  csrfToken: string;
  signedInAs: string;
}): string {
  const r = ctx.registration;
  const back = `${CONSOLE_BASE}/registrations/${e(r.registrationId)}`;
  return page({
    title: `Approve ${registrantName(r)}?`,
    signedInAs: ctx.signedInAs,
    body: `<p>You are about to approve the registration of <strong>${e(applicantName(r))}</strong>, clearing id ${clearingId(r.clearingOrgId)}. They will be told by email and can then use their account.</p>
<form method="post" action="${back}/decision" class="confirm">
${hidden(CSRF_FIELD, ctx.csrfToken)}${hidden('decision', 'approve')}${hidden('confirmed', r.registrationId)}
<button type="submit" class="approve">Approve ${e(registrantName(r))}</button>
<a href="${back}">Cancel</a>
</form>`,
  });
}

export function messagePage(
  title: string,
  message: string,
  signedInAs?: string,
  link: { href: string; text: string } = { href: CONSOLE_BASE, text: 'Registrations' },
): string {
  return page({
    title,
    signedInAs,
    body: `<p>${e(message)}</p><p><a href="${e(link.href)}">${e(link.text)}</a></p>`,
  });
}

export const CONSOLE_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #5a6470; --line: #d5dae0; --accent: #0b5cad; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f7f9; }
.top { display: flex; justify-content: space-between; align-items: center; padding: 10px 24px; background: #10243e; color: #fff; }
.top a { color: #fff; }
.brand { font-weight: 600; text-decoration: none; }
main { max-width: 1100px; margin: 0 auto; padding: 16px 24px 48px; }
h1 { font-size: 1.6rem; margin: 8px 0 16px; }
h2 { font-size: 1.2rem; margin-top: 32px; }
a { color: var(--accent); }
a:focus, button:focus, textarea:focus { outline: 3px solid #f0b400; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; background: #fff; margin-bottom: 16px; }
caption { text-align: left; font-weight: 600; font-size: 1.05rem; padding: 12px 0 6px; }
th, td { text-align: left; vertical-align: top; padding: 6px 10px; border-bottom: 1px solid var(--line); }
table.answers th { width: 45%; font-weight: 500; color: var(--muted); }
table.audit { font-size: 0.9rem; }
table.answers.evidence th { width: auto; }
/* Words stay whole: a long one wraps only when it cannot fit at all (never "exa mple.c om"). */
table.evidence td { overflow-wrap: break-word; }
table.evidence code { white-space: nowrap; word-break: normal; }
/* A table whose unbreakable cells (an email, a hash) outgrow the page scrolls inside its column. */
.table-scroll { overflow-x: auto; margin-bottom: 16px; }
.table-scroll > table { margin-bottom: 0; }
.nowrap { white-space: nowrap; }
/* The persons table: a narrow #, a title on one line. */
table.answers.persons th { width: auto; }
table.persons th:first-child, table.persons td:first-child { width: 1%; white-space: nowrap; }
table.persons td:nth-child(3), table.persons td:nth-child(4) { white-space: nowrap; }
dl.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 4px 24px; background: #fff; padding: 12px 16px; border: 1px solid var(--line); }
dl.facts dt, dl.group dt { color: var(--muted); font-size: 0.85rem; }
dl.facts dd, dl.group dd { margin: 0 0 6px; }
dl.group { margin: 0; }
ol.items { margin: 0; padding-left: 20px; }
code { font-size: 0.85rem; word-break: break-all; }
.muted { color: var(--muted); font-size: 0.85rem; }
.masked { font-family: ui-monospace, monospace; letter-spacing: 0.05em; }
.status { display: inline-block; padding: 0 8px; border-radius: 10px; font-size: 0.85rem; }
.status-pending, .status-resubmitted { background: #fff4cc; }
.status-approved { background: #d9f2dd; }
.status-rejected { background: #fbdcdc; }
form.inline { display: inline; margin-left: 8px; }
button { font: inherit; padding: 6px 16px; border-radius: 4px; border: 1px solid var(--line); cursor: pointer; }
button.link { border: none; background: none; padding: 0; color: var(--accent); text-decoration: underline; }
button.approve { background: #1d7a35; color: #fff; border-color: #1d7a35; }
button.reject { background: #b3261e; color: #fff; border-color: #b3261e; }
.decision { background: #fff; border: 1px solid var(--line); padding: 8px 16px 16px; }
.decision form { margin: 8px 0; }
button.changes { background: #8a5a00; color: #fff; border-color: #8a5a00; }
.status-changes_requested { background: #ffe1b3; }
figure.preview { margin: 4px 0; }
figure.preview img { display: block; max-width: 360px; max-height: 240px; border: 1px solid var(--line); background: #fff; }
form.confirm { display: flex; gap: 16px; align-items: center; }
.decision label { display: block; margin: 8px 0 4px; }
.decision textarea { width: 100%; max-width: 600px; display: block; margin-bottom: 8px; font: inherit; }
.notice { background: #d9f2dd; padding: 8px 12px; }
.error { background: #fbdcdc; padding: 8px 12px; }
h3.item { font-size: 1rem; margin: 12px 0 4px; }
ol.items > li { margin-bottom: 8px; }
details.mark { display: inline-block; margin-left: 12px; font-size: 0.85rem; vertical-align: top; }
details.mark summary { cursor: pointer; color: var(--accent); }
details.mark[open] { display: block; margin: 6px 0 8px; padding: 6px 10px; background: #fff8e6; border-left: 3px solid #8a5a00; }
details.mark label { display: block; margin: 4px 0 2px; }
details.mark textarea { width: 100%; max-width: 480px; font: inherit; }
tr:has(details.mark input:checked) > th, div:has(> dd > details.mark input:checked) > dt { color: #8a5a00; font-weight: 600; }
.reveal-status:not(:empty) { margin-left: 8px; color: #b3261e; }
table.answers.versions th, table.answers.diff th { width: auto; }
table.answers.diff th:first-child { width: 40%; }
table.answers.diff td, table.answers.diff thead th:not(:first-child) { width: 30%; }
.before { color: #8a1c1c; }
.after { color: #1d5c2e; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/**
 * The console's one script: Reveal asks the reveal route for JSON and shows the answer in place
 * (no reload, the reviewer's place kept, nothing re-posted by a refresh). Without it, the reveal
 * form posts and the page comes back with the answer shown. Text only: never markup.
 */
export const CONSOLE_JS = `'use strict';
document.addEventListener('submit', async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.classList.contains('reveal')) return;
  event.preventDefault();
  const holder = form.closest('.sensitive');
  const status = holder && holder.querySelector('.reveal-status');
  const button = form.querySelector('button');
  if (button) button.disabled = true;
  const say = (text) => { if (status) status.textContent = text; if (button) button.disabled = false; };
  let response;
  try {
    response = await fetch(form.action, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(new FormData(form)),
      credentials: 'same-origin',
    });
  } catch {
    say('Not revealed: the server could not be reached. Try again.');
    return;
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok || typeof body.text !== 'string') {
    say(typeof body.errorMessage === 'string' ? body.errorMessage : 'Not revealed. Reload the page and try again.');
    return;
  }
  const value = holder.querySelector('[data-reveal-value]');
  value.textContent = body.text;
  value.className = 'revealed';
  const note = document.createElement('span');
  note.className = 'muted';
  note.textContent = ' (revealed, logged)';
  value.after(note);
  form.remove();
  if (status) status.textContent = '';
});
`;
