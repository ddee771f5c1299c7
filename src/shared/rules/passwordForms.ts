/**
 * The forms a new password is checked in against the common passwords and the account's own words
 * (issue 39 §4): `Password123!`, `P@ssw0rd2026`, `Passwоrd1` with a Cyrillic о, fullwidth
 * `Ｐａｓｓｗｏｒｄ１` and `N0rthst4r-Cl34ring!` are the list's and the service's words written so
 * that a plain comparison misses them. Pure: the browser's hint and meter and the server check the
 * same forms.
 */

/**
 * Letters of other scripts drawn like Latin ones (Unicode's confusables, the lookalikes in use):
 * Cyrillic and Greek, capitals before lower-casing (Greek Η looks like H, its lower case η does
 * not), lower case after.
 */
const CONFUSABLE_CAPITALS: Record<string, string> = {
  А: 'a',
  В: 'b',
  Е: 'e',
  К: 'k',
  М: 'm',
  Н: 'h',
  О: 'o',
  Р: 'p',
  С: 'c',
  Т: 't',
  Х: 'x',
  У: 'y',
  І: 'i',
  Ј: 'j',
  Ѕ: 's',
  Α: 'a',
  Β: 'b',
  Ε: 'e',
  Ζ: 'z',
  Η: 'h',
  Ι: 'i',
  Κ: 'k',
  Μ: 'm',
  Ν: 'n',
  Ο: 'o',
  Ρ: 'p',
  Τ: 't',
  Υ: 'y',
  Χ: 'x',
};
const CONFUSABLE_SMALL: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  х: 'x',
  у: 'y',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ӏ: 'l',
  α: 'a',
  β: 'b',
  ε: 'e',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  γ: 'y',
  ω: 'w',
  ɡ: 'g',
  ı: 'i',
};

/** The common substitutions of leetspeak; 1 stands for i or l, so both are tried. */
const LEET: Record<string, string> = { 0: 'o', 3: 'e', 4: 'a', 5: 's', 7: 't', '@': 'a', $: 's' };

const mapped = (text: string, table: Record<string, string>) =>
  [...text].map((char) => table[char] ?? char).join('');

/**
 * The password as it reads: compatibility forms folded (NFKC: fullwidth, ligatures), accents
 * taken off, lookalike letters of other scripts made Latin, lower case.
 */
export function passwordSkeleton(password: string): string {
  const folded = password
    .normalize('NFKC')
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .normalize('NFC');
  return mapped(mapped(folded, CONFUSABLE_CAPITALS).toLowerCase(), CONFUSABLE_SMALL);
}

/** A stem shorter than this is not compared with the list: `Cat-81726354` is no common password. */
const STEM_MIN_LENGTH = 4;

/**
 * Every form worth comparing: the password in lower case, its skeleton, and the skeleton without
 * its trailing digits and symbols (the `2026!` people add to meet a rule), read as written and
 * with leetspeak undone (1 as i, and as l).
 */
export function passwordForms(password: string): string[] {
  const skeleton = passwordSkeleton(password);
  const stem = skeleton.replace(/[^\p{L}]+$/u, '');
  const forms = [password.toLowerCase(), skeleton];
  if (stem.length >= STEM_MIN_LENGTH) {
    const unleet = mapped(stem, LEET);
    forms.push(stem, unleet.replaceAll('1', 'i'), unleet.replaceAll('1', 'l'));
  }
  return [...new Set(forms)];
}
