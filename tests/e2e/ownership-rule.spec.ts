/**
 * Issue 37 §1, §3: a rule across answers in the business wizard. An application whose affiliated
 * persons' direct ownership adds up to 120 % (saved through the API) is refused at the list, not
 * on any person, and counted as an answer to fix; the applicant lowers one person's share in the
 * dialog, the message goes, and the registration is submitted.
 */
import fs from 'node:fs';
import type { Answers } from '../../src/shared/forms/model/schemaTypes';
import { signUpAndSignIn } from './individualForm';
import { openSavedApplication, saveBusinessApplication } from './savedApplication';
import { expect, test, uniqueEmail } from './support';

const TOTAL_120 =
  'The direct ownership of the persons listed adds up to 120 %; it can be at most 100 %';

interface Step {
  id: string;
  title: string;
  next: string;
  sections: { title?: string; fields: string[] }[];
}
const ui = JSON.parse(fs.readFileSync('schemas/business/business.ui.json', 'utf8')) as {
  'ui:steps': Step[];
};
const stepOf = (id: string) => ui['ui:steps'].find((step) => step.id === id)!;
const personsSection = stepOf('business').sections.find((section) =>
  section.fields.includes('affiliatedPersons'),
)!.title!;
const example = JSON.parse(fs.readFileSync('schemas/business/business.example.json', 'utf8')) as {
  affiliatedPersons: Answers[];
};

test('the business wizard refuses 120 % of direct ownership at the list; fixed, it submits', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('business.ownership');
  await signUpAndSignIn(page, email);
  const [daniel, amelia] = example.affiliatedPersons;
  await saveBusinessApplication(page, email, {
    overrides: {
      affiliatedPersons: [
        { ...daniel, ownershipPercent: 60 },
        { ...amelia, ownershipPercent: 60, isDirect: 'direct' },
      ],
    },
  });
  await openSavedApplication(page, '/clearing/registration/business');
  await expect(
    page.getByRole('heading', { name: stepOf('business').title, exact: true }),
  ).toBeVisible();

  // Said at the list (and in the summary of errors beside the form), no person blamed for it.
  const listMessage = page.locator('#root_affiliatedPersons__error');
  await expect(listMessage).toHaveText(TOTAL_120, { timeout: 15_000 });
  const progress = page.getByRole('complementary', { name: 'Progress' });
  await expect(page.getByText(TOTAL_120)).toHaveCount(2);
  await expect(progress.getByText(TOTAL_120)).toHaveCount(1);
  await expect(page.getByText('Has errors')).toHaveCount(0);
  // Counted as an answer to fix, in the section's progress and beside the grey button.
  await expect(progress.getByRole('listitem').filter({ hasText: personsSection })).toContainText(
    '1 answer to fix',
  );
  await expect(page.getByRole('status').filter({ hasText: 'answer to fix' })).toHaveText(
    /^1 answer to fix\./,
  );
  const next = page.getByRole('button', { name: stepOf('business').next });
  await expect(next).toBeDisabled();

  // The applicant lowers Amelia Hart's share to 40 %.
  await page.getByRole('button', { name: `Edit ${amelia!.firstName} ${amelia!.lastName}` }).click();
  const dialog = page.getByRole('dialog');
  const ownership = dialog.getByLabel(/^Ownership percentage/);
  await ownership.fill('40');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(TOTAL_120)).toHaveCount(0);

  await expect(next).toBeEnabled({ timeout: 15_000 });
  await next.click();
  await expect(
    page.getByRole('heading', { name: stepOf('confirm').title, exact: true }),
  ).toBeVisible();
  const submit = page.getByRole('button', { name: stepOf('confirm').next });
  await expect(submit).toBeEnabled({ timeout: 15_000 });
  await submit.click();
  await expect(page.getByRole('dialog', { name: 'Submission Successful' })).toBeVisible({
    timeout: 30_000,
  });
});
