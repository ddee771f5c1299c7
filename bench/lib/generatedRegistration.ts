/**
 * The generated registration form of the first-draw figure (lib/firstDraw.ts): a registration
 * kind made of `generatedForm`'s questions (lib/formsCheck.ts) after the user's details, all on
 * one step as the individual form's questions are. 200 questions as the walker counts them
 * (`questionPatterns`): 39 sections of 4 (text with a pattern, a choice with titled options,
 * yes/no, a list) and an optional details object with one note each, the user's first and last
 * name and phone number, and a condition's 2 (an agent's name asked once "An agent acts for you"
 * is ticked). Valid by construction; tests/unit/bench/generatedRegistration.test.ts runs `forms
 * check` over it.
 */
import { generatedForm, type GeneratedForm } from './formsCheck';

export const FORM_ID = 'generated-registration';
const SECTIONS = 39;
const QUESTIONS_PER_SECTION = 4;
/** The user's first and last name and phone number. */
const USER_DETAILS = ['firstName', 'lastName', 'phoneNumber'];
/** The condition's two questions (`generatedForm`'s `hasAgent` and `agentName`). */
const CONDITION = ['hasAgent', 'agentName'];
/** Each section's questions and its optional details' one (a note), the user's, the condition's. */
export const QUESTIONS =
  SECTIONS * (QUESTIONS_PER_SECTION + 1) + USER_DETAILS.length + CONDITION.length;

/** The registration form: `generatedForm`'s questions after the user's details, on one step. */
export function generatedRegistration(): GeneratedForm {
  const form = generatedForm(0, { sections: SECTIONS, questionsPerSection: QUESTIONS_PER_SECTION });
  const sections = Object.keys(form.schema.properties).filter((key) => !CONDITION.includes(key));
  const person = (name: string) => ({ $ref: `../common/person.schema.json#/$defs/${name}` });
  const schema = {
    ...form.schema,
    title: `Generated registration (${QUESTIONS} questions)`,
    'x-registration': {
      organizationKind: 'individual',
      organizationName: ['firstName', 'lastName'],
      userDetails: { firstName: 'firstName', lastName: 'lastName', phoneNumber: 'phoneNumber' },
      choice: {
        label: 'Generated registration',
        description: "The bench's generated form.",
        order: 99,
      },
      page: { title: 'Generated Registration', otherChoice: 'Not this kind?' },
      submitted: {
        title: 'Registration Submitted',
        text: 'Thank you.',
        button: 'Continue',
        then: 'home',
      },
    },
    properties: Object.fromEntries([
      ...USER_DETAILS.map((name) => [name, person(name)]),
      ...Object.entries(form.schema.properties),
    ]),
    required: [...USER_DETAILS, ...form.schema.required],
  };
  const fields = [...USER_DETAILS, ...CONDITION, ...sections];
  const ui = {
    'ui:steps': [
      {
        id: 'details',
        title: 'Your details',
        next: 'Review your answers',
        sections: [
          { title: 'About you', fields: USER_DETAILS },
          { title: 'Agent', fields: CONDITION },
          ...sections.map((section, s) => ({ title: `Part ${s + 1}`, fields: [section] })),
        ],
      },
      {
        id: 'review',
        title: 'Review',
        next: 'Submit Registration',
        review: true,
        sections: [],
      },
    ],
    'ui:order': fields,
    phoneNumber: { 'ui:widget': 'phone' },
  };
  const example = {
    firstName: 'Pat',
    lastName: 'Example',
    phoneNumber: '+12125550143',
    ...form.example,
  };
  return { schema, ui, example };
}

/** The prompt of the step's last question (the last section's last question). */
export function lastPrompt(form: GeneratedForm): string {
  const section = form.schema.properties[`section${SECTIONS - 1}`] as {
    properties: Record<string, { title: string }>;
  };
  return section.properties[`q${SECTIONS - 1}_${QUESTIONS_PER_SECTION - 1}`]!.title;
}
