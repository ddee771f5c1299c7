/**
 * The business form's own fields in SchemaForm, drawn from schemas/business: the affiliated
 * persons dialog list, the inline DBA list, the e-sign list, the LEI lookup and the downloadable
 * blank forms. Prompts and messages are read from the schemas, never retyped.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RJSFSchema } from '@rjsf/utils';
import type { LeiRecord } from '../../../src/shared/api/lei';
import { deref } from '../../../src/shared/forms/walk/schemaWalk';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { validateAnswers } from '../../../src/shared/forms/validation/validateAnswers';
import { stepsOf } from '../../../src/shared/forms/model/steps';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { FormSession } from '../../../src/web/forms/session';
import { json, mockApi } from '../renderApp';
import { field } from './helpers';
import { drawingOnly, testForm } from '../../forms';

let schema: RJSFSchema;
let uiSchema: Record<string, unknown>;
let example: Answers;
let persons: Answers[];

beforeAll(() => {
  const form = testForm('business');
  schema = form.schema as RJSFSchema;
  uiSchema = form.uiSchema;
  example = form.example as Answers;
  persons = example.affiliatedPersons as Answers[];
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const prompt = (key: string) =>
  deref(schema.properties![key] as JsonSchema, schema as JsonSchema).title!;
const personPrompt = (key: string) => {
  const person = testForm('affiliated-person').schema as JsonSchema;
  const definition = person.$defs!.affiliatedPerson!;
  return deref(definition.properties![key]!, person).title!;
};
const personMessage = (answers: Answers, pointer: string) =>
  validateAnswers(testForm('affiliated-person'), answers).errors.find((e) => e.path === pointer)!
    .message;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const uiOptions = (key: string) =>
  (uiSchema[key] as { 'ui:options': Record<string, unknown> })['ui:options'];

/**
 * The wizard's Business Details step (where all these fields are), drawn by a session: only its
 * sections that hold the questions a test is about (the whole step is ~20 sections; each query
 * and render costs jsdom in proportion to what is drawn).
 */
function renderBusiness(formData: Answers, holding: readonly string[]) {
  const committed: { current: Answers } = { current: {} };
  const user = userEvent.setup();
  const session = new FormSession({
    form: drawingOnly(testForm('business'), holding),
    initial: formData,
  });
  session.goTo(stepsOf(uiSchema)!.findIndex((step) => step.id === 'business'));
  const view = render(
    <SchemaForm
      keepDraft={false}
      session={session}
      formData={formData}
      onAnswersChange={(answers) => (committed.current = answers)}
      onSubmit={vi.fn()}
    >
      <button type="submit">Send</button>
    </SchemaForm>,
  );
  return { user, committed, ...view };
}

/** The questions each group of tests is about: renderBusiness draws the sections holding them. */
const PERSONS = ['affiliatedPersons'];
const DBA = ['dba'];
const AGREEMENTS = [
  'agreeTermsOfService',
  'ackRiskDisclosures',
  'agreeFuturesCustomerAgreement',
  'agreeArbitrationAgreement',
];
const BLANK_FORMS = ['corporateGuarantee', 'authorizationForm'];
// The lookup fills the business name, address and the non-US flag and address.
const LEI = ['lei', 'bizName', 'bizAddress', 'isNonUsBizAddressRequired', 'nonUsBizAddress'];

const personsList = () =>
  screen.getByRole('group', { name: new RegExp(`^${prompt('affiliatedPersons')}`) });

async function typeInto(
  user: ReturnType<typeof userEvent.setup>,
  input: HTMLElement,
  text: string,
) {
  await user.click(input);
  await user.paste(text);
}

// user-event and MUI dialogs are slow on a busy 2-core machine
describe('affiliated persons: a list of rows edited in a dialog', { timeout: 60_000 }, () => {
  it('shows one row per person with name, title and ownership', () => {
    renderBusiness({ affiliatedPersons: persons }, PERSONS);
    const rows = within(personsList()).getAllByRole('row');
    // a heading row, then one per person
    expect(rows).toHaveLength(persons.length + 1);
    const [first, second] = [rows[1]!, rows[2]!];
    expect(first).toHaveTextContent('Daniel Okafor');
    expect(first).toHaveTextContent('Chief Executive Officer');
    expect(first).toHaveTextContent('0%');
    expect(second).toHaveTextContent('Amelia Hart');
    expect(second).toHaveTextContent('60%');
    expect(within(personsList()).queryByText('Has errors')).toBeNull();
  });

  it("draws a table with the columns' headings, and each row's Edit and Remove as buttons that never submit the page's form", () => {
    renderBusiness({ affiliatedPersons: persons }, PERSONS);
    const table = within(personsList()).getByRole('table', {
      name: new RegExp(`^${escapeRegExp(prompt('affiliatedPersons'))}`),
    });
    const columns = uiOptions('affiliatedPersons').columns as { title: string }[];
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual([...columns.map((column) => column.title), 'Actions']);
    // Plain buttons inside the page's <form>: without type="button" each would submit it.
    for (const name of ['Edit Daniel Okafor', 'Remove Daniel Okafor']) {
      expect(within(table).getByRole('button', { name })).toHaveAttribute('type', 'button');
    }
  });

  it('adds a person: the dialog takes focus, Save validates with the person form, then the row appears', async () => {
    const { user, committed } = renderBusiness({}, PERSONS);
    const add = screen.getByRole('button', { name: 'Add affiliated person' });
    await user.click(add);
    const dialog = await dialogWithForm('Affiliated person');
    // focus moves into the dialog, to its first question
    await waitFor(() =>
      expect(within(dialog).getByLabelText(/^First name/, { selector: 'input' })).toHaveFocus(),
    );
    expect(dialog).toHaveAccessibleDescription(/An SSN, or a passport number/);

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(personMessage({}, '/firstName'))).toBeVisible();
    expect(within(dialog).getByText(personMessage({}, '/lastName'))).toBeVisible();
    expect(within(dialog).getByText(personMessage({}, '/ssn'))).toBeVisible();
    // focus goes to the first field with an error, inside the dialog
    expect(document.activeElement).toBe(within(dialog).getByLabelText(/^First name/));

    const inDialog = (key: string) =>
      within(dialog).getByLabelText(new RegExp(`^${escape(personPrompt(key))}( \\*)?$`), {
        selector: 'input, select, textarea',
      });
    // the passport country starts empty (default none), so the SSN route needs no passport
    expect(inDialog('passportCountryOfIssuance')).toHaveValue('');
    await typeInto(user, inDialog('firstName'), 'Grace');
    await typeInto(user, inDialog('lastName'), 'Hopper');
    await typeInto(user, inDialog('title'), 'Chief Risk Officer');
    await typeInto(user, inDialog('dob'), '12091966');
    await typeInto(user, inDialog('addressLine1'), '1 Navy Way');
    await typeInto(user, inDialog('addressLocality'), 'Arlington');
    await user.selectOptions(inDialog('addressRegion'), 'VA');
    await typeInto(user, inDialog('addressPostalCode'), '22201');
    await typeInto(user, inDialog('ssn'), '123456789');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.queryByRole('dialog'), dialog.textContent ?? '').toBeNull());
    const edit = within(personsList()).getByRole('button', { name: 'Edit Grace Hopper' });
    expect(within(personsList()).getAllByRole('row')[1]).toHaveTextContent('Chief Risk Officer');
    await waitFor(() => expect(edit).toHaveFocus());
    await waitFor(() =>
      expect(committed.current.affiliatedPersons).toEqual([
        expect.objectContaining({ firstName: 'Grace', lastName: 'Hopper', ssn: '123-45-6789' }),
      ]),
    );
  });

  it('edits a person: the dialog holds its answers, Save writes them and focus returns to its Edit button', async () => {
    const { user, committed } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
    const edit = screen.getByRole('button', { name: 'Edit Amelia Hart' });
    await user.click(edit);
    const dialog = await dialogWithForm('Affiliated person');
    const title = within(dialog).getByLabelText(/^Title/, { selector: 'input' });
    expect(within(dialog).getByLabelText(/^First name/, { selector: 'input' })).toHaveValue(
      'Amelia',
    );
    await typeInto(user, title, 'Managing Member');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(personsList()).getAllByRole('row')[2]).toHaveTextContent('Managing Member');
    await waitFor(() => expect(edit).toHaveFocus());
    await waitFor(() =>
      expect((committed.current.affiliatedPersons as Answers[])[1]).toEqual({
        ...persons[1],
        title: 'Managing Member',
      }),
    );
    expect((committed.current.affiliatedPersons as Answers[])[0]).toEqual(persons[0]);
  });

  it('Save refuses an invalid person with the person form message and keeps the dialog open', async () => {
    const { user } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
    await user.click(screen.getByRole('button', { name: 'Edit Daniel Okafor' }));
    const dialog = await dialogWithForm();
    const lastName = within(dialog).getByLabelText(/^Last name/, { selector: 'input' });
    await user.clear(lastName);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText(personMessage({}, '/lastName'))).toBeVisible();
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(lastName).toHaveAccessibleDescription(personMessage({}, '/lastName'));
  });

  it('Cancel and Escape keep the list as it was and return focus to the Edit button', async () => {
    const { user, committed } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
    const edit = screen.getByRole('button', { name: 'Edit Daniel Okafor' });
    await user.click(edit);
    let dialog = await dialogWithForm();
    await typeInto(user, within(dialog).getByLabelText(/^First name/, { selector: 'input' }), 'X');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(edit).toHaveFocus());
    expect(within(personsList()).getAllByRole('row')[1]).toHaveTextContent('Daniel Okafor');

    await user.keyboard('{Enter}');
    dialog = await dialogWithForm();
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(edit).toHaveFocus());
    expect(committed.current.affiliatedPersons).toEqual(persons);
  });

  it('marks a row with errors: a person missing the SSN (a restored draft) gets the badge', () => {
    const withoutSsn = { ...persons[0] };
    delete withoutSsn.ssn;
    renderBusiness({ affiliatedPersons: [withoutSsn, persons[1]] }, PERSONS);
    const rows = within(personsList()).getAllByRole('row');
    expect(within(rows[1]!).getByText('Has errors')).toBeVisible();
    expect(within(rows[2]!).queryByText('Has errors')).toBeNull();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Edit Daniel Okafor' }),
    ).toHaveAccessibleDescription('Has errors');
  });

  it('after a submit attempt, focus goes to the Edit button of the first row with errors', async () => {
    const withoutDob = { ...persons[1] };
    delete withoutDob.dob;
    const { user } = renderBusiness(
      { ...example, affiliatedPersons: [persons[0], withoutDob] },
      PERSONS,
    );
    await user.click(screen.getByRole('button', { name: 'Send' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Edit Amelia Hart' })).toHaveFocus(),
    );
  });

  it('removes a person, and an empty list shows the at-least-one message after a submit attempt', async () => {
    const { user, committed } = renderBusiness({ affiliatedPersons: [persons[0]] }, PERSONS);
    await user.click(screen.getByRole('button', { name: 'Remove Daniel Okafor' }));
    await waitFor(() => expect(committed.current.affiliatedPersons).toEqual([]));
    const add = screen.getByRole('button', { name: 'Add affiliated person' });
    expect(add).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Send' }));
    const message = (schema.properties!.affiliatedPersons as { errorMessage: { minItems: string } })
      .errorMessage.minItems;
    expect(await screen.findByText(message)).toBeVisible();
  });
});

describe('the DBA names: an inline list', { timeout: 30_000 }, () => {
  it('adds names inline, checks each, and keeps each remove button beside its input', async () => {
    const { user, committed, container } = renderBusiness({}, DBA);
    const dba = container.querySelector<HTMLElement>('.rjsf-field-array')!;
    // One group named by the prompt (hidden from sight: the section heading says it), one add
    // button worded by the uiSchema.
    expect(within(dba).getByRole('group', { name: prompt('dba') })).toBeInTheDocument();
    await user.click(within(dba).getByRole('button', { name: String(uiOptions('dba').addLabel) }));
    // Each item and its remove button named by the uiSchema ('DBA name 1'), not rjsf's
    // '<list prompt>-1' and a bare '–'.
    const itemName = (n: number) => String(uiOptions('dba').itemLabel).replace('{n}', String(n));
    const removeName = (n: number) =>
      String(uiOptions('dba').removeLabel).replace('{n}', String(n));
    const first = await within(dba).findByRole('textbox', { name: new RegExp(`^${itemName(1)}`) });
    await user.click(first);
    await user.tab();
    const message = (
      (schema.properties!.dba as RJSFSchema).items as { errorMessage: { pattern: string } }
    ).errorMessage.pattern;
    // shown with the item's name and position (§5.5)
    expect(await within(dba).findByText(new RegExp(`${escape(message)}$`))).toBeVisible();
    await typeInto(user, first, 'Acme Clearing');
    await user.tab();
    await waitFor(() => expect(committed.current.dba).toEqual(['Acme Clearing']));
    // inline: the toolbar in the same row as the input, no raised card around the item
    const remove = within(dba).getByRole('button', { name: removeName(1) });
    const item = remove.closest<HTMLElement>('div[style*="flex-start"]')!;
    expect(item).toContainElement(first);
    expect(item.querySelector('.MuiPaper-root')).toBeNull();
    await user.click(remove);
    await waitFor(() => expect(committed.current.dba).toEqual([]));
  });
});

describe('agreements: the e-sign list', { timeout: 30_000 }, () => {
  it('shows each agreement with its icon, its document link and a sign / remove toggle', async () => {
    const { user, committed } = renderBusiness({}, AGREEMENTS);
    const agreements = AGREEMENTS;
    for (const key of agreements) {
      const row = screen.getByRole('group', { name: new RegExp(escape(prompt(key))) });
      const document = (schema.properties![key] as { 'x-document'?: string })['x-document'];
      if (document) {
        expect(within(row).getByRole('link', { name: prompt(key) })).toHaveAttribute(
          'href',
          document,
        );
      }
      expect(within(row).getByTestId('RadioButtonUncheckedIcon')).toBeInTheDocument();
      await user.click(within(row).getByRole('button', { name: 'Electronically Sign' }));
      expect(within(row).getByTestId('CheckCircleIcon')).toBeInTheDocument();
      expect(within(row).getByRole('button', { name: 'Remove Signature' })).toBeVisible();
    }
    await waitFor(() =>
      expect(agreements.map((key) => committed.current[key])).toEqual([true, true, true, true]),
    );
    const first = screen.getByRole('group', { name: new RegExp(escape(prompt(agreements[0]!))) });
    await user.click(within(first).getByRole('button', { name: 'Remove Signature' }));
    await waitFor(() => expect(committed.current[agreements[0]!]).not.toBe(true));
  });
});

describe('downloadable blank forms on upload fields', () => {
  it('links the corporate guarantee and the authorized signer form', () => {
    renderBusiness({ signerAuthorization: 'no' }, BLANK_FORMS);
    for (const key of ['corporateGuarantee', 'authorizationForm']) {
      const label = uiOptions(key).documentLabel as string;
      const link = screen.getByRole('link', { name: label });
      expect(link.getAttribute('href')).toMatch(/^\/assets\/pdfs\/.+\.pdf$/);
      expect(link).toHaveAttribute('download');
    }
  });
});

const US_LEI = '5493001KJTIIGC8Y1R12';
const DE_LEI = '529900T8BM49AURSDO55';
const usRecord: LeiRecord = {
  lei: US_LEI,
  legalName: 'Acme Clearing Holdings LLC',
  addressLines: ['100 Main Street', 'Suite 500'],
  city: 'San Francisco',
  region: 'CA',
  postalCode: '94105',
  country: 'US',
  isNonUs: false,
};
const deRecord: LeiRecord = {
  lei: DE_LEI,
  legalName: 'Beispiel Handels GmbH',
  addressLines: ['Hauptstraße 5'],
  city: 'Berlin',
  region: null,
  postalCode: '10115',
  country: 'DE',
  isNonUs: true,
};

describe(
  'the LEI: check digits, then a lookup that fills the business',
  { timeout: 30_000 },
  () => {
    const lei = () => field(prompt('lei'));

    it('shows the check-digit message of the schema and looks nothing up', async () => {
      const fetchMock = mockApi({});
      const { user } = renderBusiness({}, LEI);
      const wrong = `${US_LEI.slice(0, 18)}13`;
      await typeInto(user, lei(), wrong.toLowerCase());
      expect(lei()).toHaveValue(wrong);
      const message = (schema.properties!.lei as { 'x-lei': { checksum: string } })['x-lei']
        .checksum;
      await waitFor(() => expect(lei()).toHaveAccessibleDescription(message));
      expect(screen.getByRole('status')).toHaveTextContent(message);
      await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
      expect(fetchMock).not.toHaveBeenCalled();
      // on leaving the field the form's own validation says the same
      await user.tab();
      await waitFor(() => expect(lei()).toHaveAttribute('aria-invalid', 'true'));
      expect(lei()).toHaveAccessibleDescription(message);
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('fills the business name and address from the record of a pasted LEI', async () => {
      const fetchMock = mockApi({ [`GET lei-records/${US_LEI}`]: () => json(200, usRecord) });
      const { user, committed } = renderBusiness({}, LEI);
      await typeInto(user, lei(), US_LEI);
      await waitFor(() => expect(field(prompt('bizName'))).toHaveValue(usRecord.legalName));
      expect(field(prompt('bizAddress'))).toHaveValue(
        '100 Main Street\nSuite 500\nSan Francisco, CA 94105\nUnited States',
      );
      expect(
        screen.getByRole('checkbox', { name: prompt('isNonUsBizAddressRequired') }),
      ).not.toBeChecked();
      expect(fetchMock).toHaveBeenCalledTimes(1);
      expect(String(fetchMock.mock.calls[0]![0])).toBe(`/exchange/api/web/lei-records/${US_LEI}`);
      await waitFor(() =>
        expect(committed.current).toMatchObject({
          bizName: usRecord.legalName,
          isNonUsBizAddressRequired: false,
        }),
      );
      expect(lei()).toHaveAccessibleDescription(uiOptions('lei').foundText as string);
    });

    it('sets the non-US flag and the non-US address for a headquarters outside the US', async () => {
      mockApi({ [`GET lei-records/${DE_LEI}`]: () => json(200, deRecord) });
      const { user, committed } = renderBusiness({}, LEI);
      await typeInto(user, lei(), DE_LEI);
      const flag = screen.getByRole('checkbox', { name: prompt('isNonUsBizAddressRequired') });
      await waitFor(() => expect(flag).toBeChecked());
      const nonUs = await screen.findByLabelText(/^Non-US business legal address/, {
        selector: 'textarea',
      });
      expect(nonUs).toHaveValue('Hauptstraße 5\nBerlin, 10115\nGermany');
      await waitFor(() =>
        expect(committed.current).toMatchObject({
          bizName: deRecord.legalName,
          isNonUsBizAddressRequired: true,
          nonUsBizAddress: 'Hauptstraße 5\nBerlin, 10115\nGermany',
        }),
      );
    });

    it('says the registry has no such LEI when it answers 404, not that it failed (issue 38 §4)', async () => {
      mockApi({
        [`GET lei-records/${US_LEI}`]: () => json(404, { errorMessage: 'No entity has this LEI.' }),
      });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { user } = renderBusiness({}, LEI);
      await typeInto(user, lei(), US_LEI);
      const notFound = uiOptions('lei').notFoundText as string;
      await waitFor(() => expect(lei()).toHaveAccessibleDescription(notFound));
      expect(screen.getByRole('status')).toHaveTextContent(notFound);
      expect(notFound).not.toBe(uiOptions('lei').failedText);
      expect(warn).not.toHaveBeenCalled();
    });

    it('clears what the previous LEI filled when the LEI changes, keeping what the applicant edited (issue 38 §4)', async () => {
      mockApi({
        [`GET lei-records/${US_LEI}`]: () => json(200, usRecord),
        [`GET lei-records/${DE_LEI}`]: () => json(404, { errorMessage: 'No entity has this LEI.' }),
      });
      const { user, committed } = renderBusiness({}, LEI);
      await typeInto(user, lei(), US_LEI);
      await waitFor(() => expect(field(prompt('bizName'))).toHaveValue(usRecord.legalName));
      // The applicant corrects the address; the name stays as the record gave it.
      await user.clear(field(prompt('bizAddress')));
      await typeInto(user, field(prompt('bizAddress')), '1 Corrected Way, Boston, MA 02110');
      await user.tab();
      await user.clear(lei());
      await typeInto(user, lei(), DE_LEI);
      await user.tab();
      await waitFor(() => expect(field(prompt('bizName'))).toHaveValue(''));
      expect(field(prompt('bizAddress'))).toHaveValue('1 Corrected Way, Boston, MA 02110');
      await waitFor(() => expect(committed.current.bizName).toBeUndefined());
      expect(committed.current.bizAddress).toBe('1 Corrected Way, Boston, MA 02110');
    });

    it('after a failed lookup, logs it, says so, and the user types the name and address', async () => {
      mockApi({
        [`GET lei-records/${US_LEI}`]: () =>
          json(502, { errorMessage: 'The LEI registry could not be reached.' }),
      });
      const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
      const { user, committed } = renderBusiness({}, LEI);
      await typeInto(user, lei(), US_LEI);
      await waitFor(() =>
        expect(lei()).toHaveAccessibleDescription(uiOptions('lei').failedText as string),
      );
      expect(screen.getByRole('status')).toHaveTextContent(uiOptions('lei').failedText as string);
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(US_LEI), expect.anything());
      await typeInto(user, field(prompt('bizName')), 'Typed Name Inc');
      await user.tab();
      await waitFor(() =>
        expect(committed.current).toMatchObject({ lei: US_LEI, bizName: 'Typed Name Inc' }),
      );
      expect(lei()).toBeEnabled();
    });
  },
);

/** The open dialog, once its form is drawn (the frame after the dialog itself). */
async function dialogWithForm(name?: string) {
  const dialog = await screen.findByRole('dialog', name ? { name } : {});
  // The fields come a frame after the dialog (it answers the click first).
  await within(dialog).findByLabelText(/^First name/, { selector: 'input' });
  return dialog;
}

function escape(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe(
  'the affiliated person dialog is a view of the page session (issue 19 §3)',
  { timeout: 120_000 },
  () => {
    const inDialog = (dialog: HTMLElement, key: string) =>
      within(dialog).getByLabelText(new RegExp(`^${escape(personPrompt(key))}( \\*)?$`), {
        selector: 'input, select, textarea',
      });

    it('after fixing a refused SSN, the first Save saves', async () => {
      const { user, committed } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
      await user.click(screen.getByRole('button', { name: 'Edit Daniel Okafor' }));
      const dialog = await dialogWithForm();
      const ssn = inDialog(dialog, 'ssn');
      await user.clear(ssn);
      await user.type(ssn, '900221234');
      await user.tab();
      const refused = personMessage({ ...persons[0], ssn: '900-22-1234' }, '/ssn');
      expect(await within(dialog).findByText(refused)).toBeVisible();
      // Fixed and saved at once, the new text not yet committed when Save is pressed.
      await user.clear(ssn);
      await user.type(ssn, '536221234');
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() =>
        expect((committed.current.affiliatedPersons as Answers[])[0]!.ssn).toBe('536-22-1234'),
      );
    });

    it('a failed Save shows every message at once, SSN required included, and focuses the first in view', async () => {
      const scrolled = vi.fn();
      Element.prototype.scrollIntoView = scrolled;
      const { user } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
      await user.click(screen.getByRole('button', { name: 'Add affiliated person' }));
      const dialog = await dialogWithForm();
      await user.click(within(dialog).getByRole('button', { name: 'Save' }));
      const expected = validateAnswers(testForm('affiliated-person'), {
        ownershipPercent: 0,
        isDirect: 'direct',
        addressCountry: 'US',
      }).errors.map((error) => error.message);
      expect(expected).toContain(personMessage({}, '/ssn'));
      for (const message of expected) {
        expect(await within(dialog).findByText(message)).toBeVisible();
      }
      const first = inDialog(dialog, 'firstName');
      await waitFor(() => expect(first).toHaveFocus());
      expect(scrolled.mock.contexts).toContain(first);
    });

    it('Escape asks before discarding typed answers; Keep editing keeps them', async () => {
      const { user, committed } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
      const edit = screen.getByRole('button', { name: 'Edit Daniel Okafor' });
      await user.click(edit);
      const dialog = await dialogWithForm();
      await typeInto(user, inDialog(dialog, 'title'), ' and Treasurer');
      await user.keyboard('{Escape}');
      const ask = await within(dialog).findByRole('group', { name: /^Discard your answers\?/ });
      // It names what would be lost: the one answer changed, by its prompt.
      expect(ask).toHaveAccessibleName(
        new RegExp(`has not been saved: ${escapeRegExp(personPrompt('title'))}\\.$`),
      );
      expect(within(ask).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
      await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
      expect(within(dialog).queryByRole('group', { name: /^Discard your answers\?/ })).toBeNull();
      expect(inDialog(dialog, 'title')).toHaveFocus();
      // Escape on the question answers it with Keep editing.
      await user.keyboard('{Escape}');
      await within(dialog).findByRole('group', { name: /^Discard your answers\?/ });
      await user.keyboard('{Escape}');
      await waitFor(() =>
        expect(within(dialog).queryByRole('group', { name: /^Discard your answers\?/ })).toBeNull(),
      );
      expect(screen.getByRole('dialog')).toBe(dialog);
      expect(inDialog(dialog, 'title')).toHaveFocus();
      expect(screen.getByRole('dialog')).toBe(dialog);
      expect(inDialog(dialog, 'title')).toHaveValue(`${String(persons[0]!.title)} and Treasurer`);
      // Enter on Keep editing (it has focus) returns to the dialog as it was: nothing saved,
      // no errors shown (issue 38 §4: the keystroke went on to submit the item).
      await user.keyboard('{Escape}');
      const asked = await within(dialog).findByRole('group', { name: /^Discard your answers\?/ });
      expect(within(asked).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
      await user.keyboard('{Enter}');
      await waitFor(() =>
        expect(within(dialog).queryByRole('group', { name: /^Discard your answers\?/ })).toBeNull(),
      );
      expect(screen.getByRole('dialog')).toBe(dialog);
      expect(inDialog(dialog, 'title')).toHaveFocus();
      expect(inDialog(dialog, 'title')).toHaveValue(`${String(persons[0]!.title)} and Treasurer`);
      expect(committed.current.affiliatedPersons ?? persons).toEqual(persons);
      await user.keyboard('{Escape}');
      const again = await within(dialog).findByRole('group', { name: /^Discard your answers\?/ });
      await user.click(within(again).getByRole('button', { name: 'Discard' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      await waitFor(() => expect(edit).toHaveFocus());
      expect(committed.current.affiliatedPersons ?? persons).toEqual(persons);
    });

    it('rows keep their identity: removed in every order, each remaining row keeps its element and answers', async () => {
      const three = [...persons, { ...persons[0]!, firstName: 'Grace', lastName: 'Hopper' }];
      const names = three.map((person) => `${String(person.firstName)} ${String(person.lastName)}`);
      const orders = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
      ];
      for (const order of orders) {
        const { user, committed, unmount } = renderBusiness({ affiliatedPersons: three }, PERSONS);
        let left = [0, 1, 2];
        for (const index of order) {
          const elements = new Map(
            left.map((i) => [
              i,
              screen.getByRole('button', { name: `Edit ${names[i]}` }).closest('tr'),
            ]),
          );
          await user.click(screen.getByRole('button', { name: `Remove ${names[index]}` }));
          left = left.filter((i) => i !== index);
          await waitFor(() =>
            expect(committed.current.affiliatedPersons).toEqual(left.map((i) => three[i])),
          );
          // Keyed by identity: a row keeps its element when one above it goes (by position, the
          // element of a removed row would be reused for the next person).
          for (const i of left) {
            expect(screen.getByRole('button', { name: `Edit ${names[i]}` }).closest('tr')).toBe(
              elements.get(i),
            );
          }
        }
        unmount();
      }
    });

    it('rows edited in either order, and edited after a removal, keep every person', async () => {
      // The fields trim what is typed on leaving them: a suffix typed into an empty title keeps
      // no leading space.
      const edited = (person: Answers, suffix: string) => ({
        ...person,
        title: `${(person.title as string | undefined) ?? ''}${suffix}`.trim(),
      });
      for (const order of [
        [0, 1],
        [1, 0],
      ]) {
        const { user, committed, unmount } = renderBusiness(
          { affiliatedPersons: persons },
          PERSONS,
        );
        const names = persons.map((p) => `${String(p.firstName)} ${String(p.lastName)}`);
        for (const index of order) {
          await user.click(screen.getByRole('button', { name: `Edit ${names[index]}` }));
          const dialog = await dialogWithForm();
          await typeInto(user, inDialog(dialog, 'title'), ` ${index}`);
          await user.click(within(dialog).getByRole('button', { name: 'Save' }));
          await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
        }
        await waitFor(() =>
          expect(committed.current.affiliatedPersons).toEqual(
            persons.map((person, index) => edited(person, ` ${index}`)),
          ),
        );
        // The first removed, the second (now first) edited again: it is the one written.
        await user.click(screen.getByRole('button', { name: `Remove ${names[0]}` }));
        await user.click(screen.getByRole('button', { name: `Edit ${names[1]}` }));
        const dialog = await dialogWithForm();
        await typeInto(user, inDialog(dialog, 'title'), '!');
        await user.click(within(dialog).getByRole('button', { name: 'Save' }));
        await waitFor(() =>
          expect(committed.current.affiliatedPersons).toEqual([edited(persons[1]!, ' 1!')]),
        );
        unmount();
      }
    });
  },
);

describe('the affiliated person dialog is accessible', { timeout: 150_000 }, () => {
  it('has no serious or critical axe-core violation (jsdom: contrast is judged in Chromium)', async () => {
    const { default: axe } = await import('axe-core');
    const { user } = renderBusiness({ affiliatedPersons: persons }, PERSONS);
    await user.click(screen.getByRole('button', { name: 'Edit Daniel Okafor' }));
    const dialog = await dialogWithForm();
    // with the errors of a refused Save shown too
    await user.clear(within(dialog).getByLabelText(/^Last name/, { selector: 'input' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText(personMessage({}, '/lastName'));
    const results = await axe.run(dialog, { rules: { 'color-contrast': { enabled: false } } });
    const serious = results.violations.filter(
      (violation) => violation.impact === 'serious' || violation.impact === 'critical',
    );
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`)).toEqual([]);
    // and the list itself
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const list = await axe.run(personsList(), { rules: { 'color-contrast': { enabled: false } } });
    expect(
      list.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => v.id),
    ).toEqual([]);
  });
});
