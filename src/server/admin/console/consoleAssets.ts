/**
 * The console's address and its two assets: one small stylesheet and one same-origin script
 * (`console.js`: Reveal without reloading; the CSP allows no inline script). Styles and code,
 * never markup: the pages are React components beside this module.
 */

export const CONSOLE_BASE = '/clearing/admin';
export const CONSOLE_CSS_PATH = `${CONSOLE_BASE}/console.css`;
export const CONSOLE_JS_PATH = `${CONSOLE_BASE}/console.js`;

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
.status-submitted, .status-resubmitted { background: #fff4cc; }
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
tr.requested > th, tr.requested > td { background: #fff8e6; }
tr.requested > th { border-left: 3px solid #8a5a00; }
p.requested-note { margin: 4px 0 0; color: #5c3c00; }
.requested-summary { background: #fff8e6; border-left: 3px solid #8a5a00; padding: 8px 16px; margin: 16px 0; }
tr:has(details.mark input:checked) > th, div:has(> dd > details.mark input:checked) > dt { color: #8a5a00; font-weight: 600; }
.reveal-status:not(:empty) { margin-left: 8px; color: #b3261e; }
table.answers.versions th, table.answers.diff th { width: auto; }
table.answers.diff th:first-child { width: 40%; }
table.answers.diff td, table.answers.diff thead th:not(:first-child) { width: 30%; }
.before { color: #8a1c1c; }
.after { color: #1d5c2e; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
/* Below the portal's desktop breakpoint (991 px: a tablet, a phone) the page keeps the screen's
   width: the header wraps, a table wider than the screen scrolls inside itself (its rows' links
   and Mark controls make it reachable by keyboard), the answers and the audit trail wrap their
   text rather than scroll (the signature evidence, with its hashes, scrolls), and facts,
   previews and forms take one column. */
@media (max-width: 990.98px) {
  .top { flex-wrap: wrap; gap: 4px 16px; padding: 10px 16px; }
  main { padding: 12px 16px 32px; }
  table { display: block; overflow-x: auto; position: relative; }
  table.answers:not(.evidence) td { overflow-wrap: anywhere; }
  /* The persons table scrolls like the other wide tables: a name broken mid-word
     ("Danie l Okafo r") reads as broken. */
  table.answers.persons td { overflow-wrap: normal; }
  /* The trail fits: tighter cells, its who (an email) broken where it must, the other columns
     wrapped between words (it has nothing to focus, so it must not need scrolling). */
  table.audit th, table.audit td { padding: 4px 6px; }
  table.audit td:nth-child(4) { overflow-wrap: anywhere; }
  dl.facts { grid-template-columns: minmax(0, 1fr); }
  dl.facts dd { overflow-wrap: anywhere; }
  figure.preview img { max-width: 100%; height: auto; }
  form.confirm { flex-wrap: wrap; }
  details.mark { margin-left: 8px; }
}
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
