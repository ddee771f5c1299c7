/**
 * The browser shows every refusal (issue 37 §3): a rule across a list's items is said at the
 * list, never on its items, and counted as an answer to fix; a given but refused answer is one to
 * fix, not one still needed; a server 422 is shown at the question it names; `itemLabel` heads
 * each item of a list of objects.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkForms } from '../../../src/shared/forms/check/checkForms';
import type { CompiledForm } from '../../../src/shared/forms/model/compiledForm';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import { errorId } from '@rjsf/utils';
import { FormWizard } from '../../../src/web/forms/FormWizard';
import { MissingAnswers } from '../../../src/web/forms/MissingAnswers';
import { SchemaForm } from '../../../src/web/forms/SchemaForm';
import { FormSession } from '../../../src/web/forms/session';
import { testForm } from '../../forms';

const TOTAL_MESSAGE =
  'The direct ownership of the principals adds up to 120 %; it can be at most 100 %';

/** A pool operator: principals inline, each 'Principal {n}', their ownership at most 100 % in all. */
function poolForm(): CompiledForm {
  const schema: JsonSchema = {
    type: 'object',
    'x-messages': { type: 'Please check this answer', required: 'Please answer this question' },
    properties: {
      poolName: { type: 'string', title: 'Pool name' },
      principals: {
        type: 'array',
        title: 'Principals',
        items: {
          type: 'object',
          title: 'Principal',
          properties: {
            name: { type: 'string', title: 'Name' },
            ownership: { type: 'integer', title: 'Ownership (%)' },
          },
        },
      },
    },
    'x-rules': [
      {
        at: '/principals',
        values: {
          total: {
            reduce: [
              { var: 'principals' },
              { '+': [{ var: 'accumulator' }, { var: ['current.ownership', 0] }] },
              0,
            ],
          },
        },
        rule: { '<=': [{ var: 'total' }, 100] },
        message:
          'The direct ownership of the principals adds up to {total} %; it can be at most 100 %',
      },
    ],
  };
  const uiSchema = {
    principals: {
      'ui:options': {
        itemLabel: 'Principal {n}',
        addLabel: 'Add a principal',
        valuesText: 'Ownership listed so far: {total} %',
      },
    },
  };
  const example = { poolName: 'Pool', principals: [{ name: 'Ada', ownership: 60 }] };
  const { problems, forms } = checkForms({
    forms: { pool: { schema, uiSchema, example } },
    commons: {},
  });
  expect(problems).toEqual([]);
  return forms.get('pool')!;
}

let form: CompiledForm;
beforeEach(() => {
  form ??= poolForm();
});

function renderPool() {
  const session = new FormSession({ form, onePage: true });
  render(
    <SchemaForm session={session} keepDraft={false} onSubmit={vi.fn()}>
      <MissingAnswers session={session} />
    </SchemaForm>,
  );
  return { session, user: userEvent.setup() };
}

describe('a rule across a list, at the list (issue 37 §3)', { timeout: 30_000 }, () => {
  it('is said at the list, not on its items, counted as an answer to fix; items are headed by itemLabel', async () => {
    const { user } = renderPool();
    await user.click(screen.getByRole('button', { name: 'Add a principal' }));
    await user.click(screen.getByRole('button', { name: 'Add a principal' }));
    expect(screen.getByText('Principal 1')).toBeInTheDocument();
    expect(screen.getByText('Principal 2')).toBeInTheDocument();
    const ownership = screen.getAllByRole('textbox', { name: 'Ownership (%)' });
    await user.type(ownership[0]!, '60');
    await user.type(ownership[1]!, '60');
    await user.tab();

    const list = screen.getByRole('group', { name: 'Principals' }).parentElement!;
    const listErrors = document.getElementById(errorId('root_principals'))!;
    await waitFor(() => expect(listErrors).toHaveTextContent(TOTAL_MESSAGE));
    expect(list).toContainElement(listErrors);
    // Said once, at the list: no item carries it.
    expect(screen.getAllByText(TOTAL_MESSAGE)).toHaveLength(1);
    expect(document.getElementById(errorId('root_principals_0'))).toBeNull();
    expect(screen.getByRole('status')).toHaveTextContent('1 answer to fix.');
    expect(screen.getByRole('status')).not.toHaveTextContent('still needed');

    await user.clear(ownership[1]!);
    await user.type(ownership[1]!, '40');
    await user.tab();
    await waitFor(() => expect(screen.queryByText(TOTAL_MESSAGE)).toBeNull());
  });
});

describe('a running total at the list (issue 37 §1)', { timeout: 30_000 }, () => {
  it('shows the value the rule computes, as the answers change', async () => {
    const { user } = renderPool();
    await user.click(screen.getByRole('button', { name: 'Add a principal' }));
    const ownership = () => screen.getAllByRole('textbox', { name: 'Ownership (%)' });
    await user.type(ownership()[0]!, '60');
    await waitFor(() =>
      expect(screen.getByText('Ownership listed so far: 60 %')).toBeInTheDocument(),
    );
    await user.click(screen.getByRole('button', { name: 'Add a principal' }));
    await user.type(ownership()[1]!, '20');
    await waitFor(() =>
      expect(screen.getByText('Ownership listed so far: 80 %')).toBeInTheDocument(),
    );
  });

  it('is checked: a value no rule at the list computes is refused by forms check', () => {
    const { problems } = checkForms({
      forms: {
        pool: {
          schema: form.schema,
          uiSchema: { principals: { 'ui:options': { valuesText: 'So far: {sum} %' } } },
          example: {},
        },
      },
      commons: {},
    });
    expect(problems.map((p) => `${p.pointer} ${p.message}`)).toContain(
      '/principals/ui:options/valuesText valuesText names {sum}, which no rule shown at /principals computes (its values: total)',
    );
  });
});

describe('answers given but refused, and the server’s refusals', { timeout: 30_000 }, () => {
  function renderWizard(fieldErrors?: Parameters<typeof FormWizard>[0]['fieldErrors']) {
    const individual = testForm('individual');
    const session = new FormSession({ form: individual, initial: { firstName: 'Jane' } });
    const element = (errors: typeof fieldErrors) => (
      <FormWizard session={session} onSubmit={vi.fn()} fieldErrors={errors} />
    );
    const router = createMemoryRouter([{ path: '/form', element: element(fieldErrors) }], {
      initialEntries: ['/form'],
    });
    render(<RouterProvider router={router} />);
    return { session, individual };
  }

  it('a server 422 is shown at the question it names, as the browser’s own check would', async () => {
    const refusal = { firstName: { __errors: ['This name is on a sanctions list'] } };
    renderWizard(refusal);
    const at = await waitFor(() => {
      const found = document.getElementById(errorId('root_firstName'));
      expect(found).toHaveTextContent('This name is on a sanctions list');
      return found!;
    });
    expect(at).toBeVisible();
    const first = screen.getByRole('textbox', { name: /first name/i });
    expect(first).toHaveAttribute('aria-invalid', 'true');
  });

  it('the review lists each answer the server refused by its question', async () => {
    const business = testForm('business');
    const session = new FormSession({
      form: business,
      given: business.example,
      openAt: business.steps!.length - 1,
    });
    const router = createMemoryRouter(
      [{ path: '/form', element: <FormWizard session={session} onSubmit={vi.fn()} /> }],
      { initialEntries: ['/form'] },
    );
    render(<RouterProvider router={router} />);
    act(() => session.refuseAnswers([{ path: '/bizName', message: 'Already registered' }]));
    const title = await screen.findByText(/There are errors in the form/);
    const alert = title.closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByText('Business legal name: Already registered')).toBeInTheDocument();
  });

  it('a given but refused answer counts as one to fix, a missing one as still needed', () => {
    const { session } = renderWizard();
    const entries = session.stepErrors.get();
    const first = entries.find((entry) => entry.pointer === '/firstName');
    expect(first).toBeUndefined();
    const missing = entries.find((entry) => entry.pointer === '/lastName');
    expect(missing?.given).toBeUndefined();
    act(() => session.refuseAnswers([{ path: '/firstName', message: 'Refused by the server' }]));
    const refused = session.stepErrors.get().find((entry) => entry.pointer === '/firstName');
    expect(refused).toMatchObject({ message: 'Refused by the server', given: true });
    const aside = screen.getByRole('complementary', { name: 'Progress' });
    expect(within(aside).getByText(/\d+ answers? needed, 1 answer to fix$/)).toBeInTheDocument();
  });
});
