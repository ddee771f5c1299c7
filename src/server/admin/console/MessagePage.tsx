/** A page that says one thing (not found, refused, an error) and links on. */
import { CONSOLE_BASE } from './consoleAssets';
import { ConsolePage, renderConsolePage } from './ConsolePage';

export function renderMessagePage(
  title: string,
  message: string,
  signedInAs?: string,
  link: { href: string; text: string } = { href: CONSOLE_BASE, text: 'Registrations' },
): string {
  return renderConsolePage(
    <ConsolePage title={title} signedInAs={signedInAs}>
      <p>{message}</p>
      <p>
        <a href={link.href}>{link.text}</a>
      </p>
    </ConsolePage>,
  );
}
