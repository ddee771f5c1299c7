import fs from 'node:fs';
import { useState } from 'react';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/web/api/client';
import { SchemaForm, type Answers } from '../../../src/web/forms/SchemaForm';
import { registrationFailureMessage } from '../../../src/web/pages/registration/registrationFailure';
import { testForm } from '../../forms';

let form: ReturnType<typeof testForm>;
const example = JSON.parse(
  fs.readFileSync('schemas/individual/individual.example.json', 'utf8'),
) as Answers;

beforeAll(() => {
  form = testForm('individual');
});

/**
 * The individual page's pattern: the submit area is a render function closing over page state
 * (the failure), set when onSubmit rejects. Valid example answers, so the submission goes out.
 */
function PageLike({ fail }: { fail: () => Promise<never> }) {
  const [failure, setFailure] = useState<string | null>(null);
  async function onSubmit() {
    setFailure(null);
    try {
      await fail();
    } catch (error) {
      setFailure(registrationFailureMessage(error));
      throw error;
    }
  }
  return (
    <SchemaForm form={form} keepDraft={false} formData={example} onSubmit={onSubmit}>
      {(status) => (
        <>
          {failure && (
            <div role="alert">
              Registration Failed: {failure} If this problem persists, please contact support.
            </div>
          )}
          <button type="submit">{status.submitting ? 'Submitting' : 'Submit Registration'}</button>
        </>
      )}
    </SchemaForm>
  );
}

describe(
  'a refused registration is reported, never silent (access §8)',
  { timeout: 30_000 },
  () => {
    it.each([
      [
        'a 4xx answer with errorMessage',
        () => new ApiError(400, { errorMessage: 'The W-2 file is not a readable PDF.' }),
        'The W-2 file is not a readable PDF.',
      ],
      ['a network failure', () => new TypeError('Failed to fetch'), 'Failed to fetch'],
      ['an answer without errorMessage', () => new ApiError(502, null), 'Unknown error occurred.'],
    ])('shows the Registration Failed alert after %s', async (_case, makeError, expected) => {
      const user = userEvent.setup();
      render(<PageLike fail={() => Promise.reject(makeError())} />);
      await user.click(screen.getByRole('button', { name: 'Submit Registration' }));
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent(`Registration Failed: ${expected}`);
      expect(alert).toHaveTextContent('contact support');
      // The answers stay for another try.
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Submit Registration' })).toBeEnabled(),
      );
      expect(screen.getByDisplayValue(String(example.firstName))).toBeInTheDocument();
    });

    it('re-renders the submit area whenever the page does, not only when the form changes', async () => {
      const user = userEvent.setup();
      function Counter() {
        const [count, setCount] = useState(0);
        return (
          <>
            <button type="button" onClick={() => setCount((n) => n + 1)}>
              Count
            </button>
            <SchemaForm form={form} keepDraft={false} onSubmit={() => {}}>
              {() => <p>Page state {count}</p>}
            </SchemaForm>
          </>
        );
      }
      render(<Counter />);
      await user.click(screen.getByRole('button', { name: 'Count' }));
      expect(await screen.findByText('Page state 1')).toBeInTheDocument();
    });
  },
);
