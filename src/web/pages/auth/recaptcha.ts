/** The captcha service on sign-up (access §7): script loading and the 'signup' action. */

interface Grecaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

declare global {
  interface Window {
    grecaptcha?: Grecaptcha;
  }
}

const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js';
export const CAPTCHA_UNAVAILABLE_MESSAGE = 'Google Captcha not available';

/** Adds the captcha script once; a load failure is only logged (access §8). */
export function loadRecaptcha(siteKey: string): void {
  const src = `${RECAPTCHA_SCRIPT_URL}?render=${encodeURIComponent(siteKey)}`;
  if (document.querySelector(`script[src="${src}"]`)) return;
  const script = document.createElement('script');
  script.src = src;
  script.async = true;
  script.onerror = () => console.error('The captcha script failed to load.');
  document.head.appendChild(script);
}

/** The loaded captcha, or undefined when it is not available. */
export function getRecaptcha(): Grecaptcha | undefined {
  return window.grecaptcha;
}

/** A token for the 'signup' action. */
export function executeSignupCaptcha(grecaptcha: Grecaptcha, siteKey: string): Promise<string> {
  return new Promise((resolve, reject) => {
    grecaptcha.ready(() => {
      grecaptcha.execute(siteKey, { action: 'signup' }).then(resolve, reject);
    });
  });
}
