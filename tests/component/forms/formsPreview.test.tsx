/**
 * The preview lists the folders of schemas/ (issue 16 §1): a form folder a compliance team adds
 * appears and is drawn with no code change. The index the Vite plugin gives the browser
 * (`virtual:forms`) is built by the plugin's own discovery from a project folder holding a new
 * folder, copied from another and renamed; the form is compiled from that folder's files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { testForm } from '../../forms';

/** A project folder: schemas/ as it is, plus `beneficial-owner`, a renamed copy of a form. */
const root = vi.hoisted(() => {
  // vi.hoisted runs before imports; node's modules are reached through the process.
  const fsSync = process.getBuiltinModule('node:fs');
  const osSync = process.getBuiltinModule('node:os');
  const pathSync = process.getBuiltinModule('node:path');
  const folder = fsSync.mkdtempSync(pathSync.join(osSync.tmpdir(), 'forms-preview-'));
  fsSync.cpSync('schemas', pathSync.join(folder, 'schemas'), { recursive: true });
  const from = pathSync.join(folder, 'schemas/affiliated-person');
  const to = pathSync.join(folder, 'schemas/beneficial-owner');
  fsSync.mkdirSync(to);
  for (const kind of ['schema', 'ui', 'example']) {
    const text = fsSync.readFileSync(pathSync.join(from, `affiliated-person.${kind}.json`), 'utf8');
    const content = JSON.parse(text) as Record<string, unknown>;
    if (kind === 'schema') content.title = 'Beneficial owner';
    fsSync.writeFileSync(
      pathSync.join(to, `beneficial-owner.${kind}.json`),
      JSON.stringify(content, null, 2),
    );
  }
  return folder;
});

vi.mock('virtual:forms', async () => {
  const { formIndex } = await import('../../../scripts/formValidatorsPlugin');
  const { compileForms, diskTree } = await import('../../../src/shared/forms/model/compileNode');
  const { readFormSources } = await import('../../../src/shared/forms/model/formFiles');
  const { ids, titles } = formIndex(root);
  return {
    formIds: ids,
    formTitles: titles,
    importForm: async (id: string) => {
      const { sources } = readFormSources(diskTree(root));
      return compileForms(sources, [id]).forms.get(id);
    },
  };
});

const { FormsPreviewPage } = await import('../../../src/web/pages/dev/FormsPreviewPage');

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function renderPreview(at: string) {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <Routes>
        <Route path="/dev/forms/:formId?" element={<FormsPreviewPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('form preview', { timeout: 60_000 }, () => {
  it('lists a new form folder beside the others, by its title', () => {
    expect(fs.existsSync(path.join(root, 'schemas/beneficial-owner'))).toBe(true);
    expect(fs.existsSync(path.resolve('schemas/beneficial-owner'))).toBe(false);
    renderPreview('/dev/forms');
    const link = screen.getByRole('link', { name: 'Beneficial owner' });
    expect(link).toHaveAttribute('href', '/dev/forms/beneficial-owner');
    expect(screen.getByRole('link', { name: 'Individual registration' })).toBeInTheDocument();
  });

  it('draws the new form with its example answers, validated', async () => {
    const user = userEvent.setup();
    renderPreview('/dev/forms');
    await user.click(screen.getByRole('link', { name: 'Beneficial owner' }));
    expect(
      await screen.findByRole(
        'heading',
        { level: 1, name: 'Beneficial owner' },
        { timeout: 30_000 },
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('beneficial-owner', { selector: 'code' })).toBeInTheDocument();
    expect(await screen.findByText('The answers are valid.')).toBeInTheDocument();
  });

  it('the prefilled example enables Next on every step, up to the review (issue 37 §4)', async () => {
    const user = userEvent.setup();
    renderPreview('/dev/forms/business');
    const steps = testForm('business').steps!;
    await screen.findByRole('button', { name: steps[0]!.next }, { timeout: 30_000 });
    // The example is no draft: nothing says answers were restored.
    expect(screen.queryByText(/were restored/)).not.toBeInTheDocument();
    for (const step of steps.slice(0, -1)) {
      const next = await screen.findByRole('button', { name: step.next });
      await waitFor(() => expect(next).toBeEnabled());
      await user.click(next);
    }
    // The review: every answer given, so Confirm submits (the preview sends nothing).
    const confirm = await screen.findByRole('button', { name: steps.at(-1)!.next });
    await waitFor(() => expect(confirm).toBeEnabled());
  });
});
