/**
 * Issue 38 §2: a part of the page whose code cannot be fetched (the connection gone) never takes
 * the page down: it says so in place and offers to try again.
 */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isChunkLoadError,
  lazyPart,
  PART_NOT_LOADED_MESSAGE,
  PartBoundary,
} from '../../src/web/app/LazyPart';

const offline = () =>
  new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/Part.js');

afterEach(() => vi.restoreAllMocks());

describe('lazyPart and PartBoundary', () => {
  it('keeps the page, says the part could not be loaded, and loads it on Try again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    let online = false;
    const Part = lazyPart(async () => {
      if (!online) throw offline();
      return ({ name }: { name: string }) => <p>Hello {name}</p>;
    });
    render(
      <main>
        <label>
          First name <input defaultValue="Jane" />
        </label>
        <PartBoundary retry={Part.retry}>
          <Part name="Jane" />
        </PartBoundary>
      </main>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(PART_NOT_LOADED_MESSAGE);
    // The rest of the page, and what was typed in it, stays.
    expect(screen.getByRole('textbox', { name: 'First name' })).toHaveValue('Jane');

    online = true;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello Jane')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offers Close when the owner gives one, and tells a broken part from an unloaded one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onClose = vi.fn();
    const Broken = () => {
      throw new Error('a bug');
    };
    render(
      <PartBoundary onClose={onClose} floating>
        <Broken />
      </PartBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent(/stopped working/);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it.each([
    [offline(), true],
    [new TypeError('Importing a module script failed.'), true],
    [new Error('Unable to preload CSS for /assets/Part.css'), true],
    [new Error('a bug'), false],
    ['not an error', false],
  ])('isChunkLoadError(%s) is %s', (error, expected) => {
    expect(isChunkLoadError(error)).toBe(expected);
  });
});
