import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { draftSafeAnswers } from '../../../src/shared/forms/walk/answers';
import { allProperties, deref } from '../../../src/shared/forms/walk/schemaWalk';
import type { JsonSchema } from '../../../src/shared/forms/model/schemaTypes';
import type { CompiledForm } from '../../../src/shared/forms/model/compiledForm';
import { DRAFT_PREFIX } from '../../../src/web/forms/drafts';
import { MissingAnswers } from '../../../src/web/forms/MissingAnswers';
import { RestoredDraftNotice } from '../../../src/web/forms/RestoredDraftNotice';
import { SchemaForm } from '../../../src/web/forms/SchemaForm';
import { formatInternational } from '../../../src/web/forms/format';
import { SchemaReview } from '../../../src/web/forms/SchemaReview';
import { browserDrafts, FormSession } from '../../../src/web/forms/session';
import { testForm } from '../../forms';

let individual: CompiledForm;
let business: CompiledForm;
beforeAll(() => {
  individual = testForm('individual');
  business = testForm('business');
});
beforeEach(() => localStorage.clear());

function individualSession() {
  return new FormSession({
    form: individual,
    persistence: browserDrafts('individual', (a) => draftSafeAnswers(testForm('individual'), a)),
  });
}
const title = (key: string) =>
  (individual.schema.properties![key] as { title: string } | undefined)!.title;

describe('views of a session', { timeout: 30_000 }, () => {
  it('a restored draft says which answers must be given again (the individual form)', () => {
    localStorage.setItem(DRAFT_PREFIX + 'individual', JSON.stringify({ firstName: 'Jane' }));
    const session = individualSession();
    render(<RestoredDraftNotice session={session} />);
    const notice = screen.getByRole('alert');
    expect(notice).toHaveTextContent('Your saved answers were restored');
    expect(notice).toHaveTextContent(title('socialSecurityNumber'));
    expect(notice).toHaveTextContent(title('dateOfBirth'));
    expect(notice).not.toHaveTextContent(title('firstName'));
  });

  it('the restored notice says it once, on its step, lists only what is still to give, and can be dismissed', async () => {
    const user = userEvent.setup();
    localStorage.setItem(
      DRAFT_PREFIX + 'business',
      JSON.stringify({ firstName: 'Dan', signerAuthorization: 'no' }),
    );
    const session = new FormSession({
      form: business,
      persistence: browserDrafts('business', (a) => draftSafeAnswers(testForm('business'), a)),
    });
    render(<RestoredDraftNotice session={session} />);
    const notice = screen.getByRole('alert');
    const prompt = (key: string) =>
      allProperties(business.schema as JsonSchema, business.schema as JsonSchema)[key]!.title!;
    // The user step's photo ID, not the signer form or agreements a later step asks.
    expect(notice).toHaveTextContent(prompt('photoId'));
    expect(notice).not.toHaveTextContent(prompt('authorizationForm'));
    expect(notice).not.toHaveTextContent(prompt('agreeTermsOfService'));
    // Given: it leaves the list.
    act(() => {
      session.commit({
        ...session.answers(),
        photoId: { name: 'id.png', type: 'image/png', size: 10 },
      });
    });
    await waitFor(() => expect(notice).not.toHaveTextContent(prompt('photoId')));
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('the restored notice is gone once the user moves on, and does not come back', () => {
    localStorage.setItem(DRAFT_PREFIX + 'business', JSON.stringify({ firstName: 'Dan' }));
    const session = new FormSession({
      form: business,
      persistence: browserDrafts('business', (a) => draftSafeAnswers(testForm('business'), a)),
    });
    render(<RestoredDraftNotice session={session} />);
    expect(screen.getByRole('alert')).toHaveTextContent('Your saved answers were restored');
    act(() => session.goTo(1));
    expect(screen.queryByRole('alert')).toBeNull();
    act(() => session.goTo(0));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says nothing when no draft was restored', () => {
    render(<RestoredDraftNotice session={individualSession()} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('counts the answers still needed and moves to the first with its message', async () => {
    const user = userEvent.setup();
    const session = individualSession();
    render(
      <SchemaForm session={session} onSubmit={vi.fn()}>
        <MissingAnswers session={session} />
      </SchemaForm>,
    );
    const status = await screen.findByText(/answers are still needed\.$/);
    const count = Number(/^(\d+)/.exec(status.textContent ?? '')![1]);
    expect(count).toBeGreaterThan(10);
    expect(document.querySelector('.Mui-error')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Go to the first' }));
    await waitFor(() => expect(document.activeElement?.id).toBe('root_firstName'));
    expect(screen.getByText('Must provide first name')).toBeInTheDocument();
    // Only that one: the next missing answer stays quiet until reached.
    expect(screen.queryByText('Must provide last name')).toBeNull();
  });

  it('says nothing is missing once the answers were sent (issue 38 §4)', async () => {
    // Complete answers the form opened with: nothing needed, nothing given yet.
    const session = new FormSession({ form: business, initial: business.example });
    render(
      <SchemaForm session={session} onSubmit={vi.fn()}>
        <MissingAnswers session={session} />
      </SchemaForm>,
    );
    expect(await screen.findByText('No answer has been given yet.')).toBeInTheDocument();
    expect(await act(() => session.submit(async () => {}))).toBe(true);
    expect(session.status.get().submitted).toBe(true);
    expect(screen.queryByText('No answer has been given yet.')).toBeNull();
  });

  it('the review draws prompts and answers from the schema, hides what a condition hides, and edits a section', async () => {
    const user = userEvent.setup();
    const session = new FormSession({
      form: business,
      initial: { ...business.example, signerAuthorization: 'yes' },
    });
    const onEdit = vi.fn();
    render(<SchemaReview session={session} onEdit={onEdit} />);
    const prompt = (key: string) =>
      deref(business.schema.properties![key] as JsonSchema, business.schema as JsonSchema).title!;
    const answer = (question: string) =>
      screen.getByText(question, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(answer(prompt('bizName'))).toBe('Granite Ridge Mining Co.');
    expect(answer(prompt('tradingIntentions'))).toBe('Hedging mining output');
    expect(answer(prompt('isNonUsBizAddressRequired'))).toBe('Yes');
    expect(answer(prompt('dba'))).toBe('Granite Ridge, GRM Hedging');
    // Phone numbers grouped as the phone widget shows them, not as stored.
    expect(business.example.bizPhone).toMatch(/^\+\d+$/);
    expect(answer(prompt('bizPhone'))).toBe(formatInternational(String(business.example.bizPhone)));
    expect(answer(prompt('bizPhone'))).toMatch(/^\+\d+ \d/);
    expect(screen.getByText('Affiliated person 2')).toBeInTheDocument();
    expect(screen.getByText('•••••••6789')).toBeInTheDocument();
    // signerAuthorization 'yes': the signer form is not asked, so not reviewed.
    expect(screen.queryByText(/Authorized signer form/)).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Edit Website (Business Details)' }));
    // Back to Business Details, landing at the Website section's heading.
    expect(onEdit).toHaveBeenCalledWith(1, 'section-business-4');
  });
});
