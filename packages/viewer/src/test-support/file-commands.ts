import { rmSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserCommand } from 'vitest/node';

/**
 * Chooses a file made in the test for a file input, through WebDriver's own file selection (sending the file's path
 * to the input), for the webdriverio provider, whose `userEvent.upload` takes only paths on disk: the bytes are
 * written to a temporary file named as the test named it, so its type comes from its extension as a picked file's
 * does. `selector` is the input's locator selector (`page.elementLocator(input).selector`).
 */
const chooseFile: BrowserCommand<[selector: string, name: string, base64: string]> = async (context, selector, name, base64) => {
  if (context.provider.name !== 'webdriverio') throw new Error('chooseFile is for the webdriverio provider: use userEvent.upload');
  const path = join(await uploadDir(), name);
  await writeFile(path, Buffer.from(base64, 'base64'));
  const browser = (context as unknown as { browser: { $(selector: string): { addValue(value: string): Promise<void> } } }).browser;
  await browser.$(selector).addValue(path);
};

/** One temporary directory for the run's chosen files, made on first use and removed when the process exits. */
let directory: Promise<string> | undefined;
function uploadDir(): Promise<string> {
  return (directory ??= mkdtemp(join(tmpdir(), 'signet-upload-')).then((made) => {
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    return made;
  }));
}

export const fileCommands = { chooseFile };

declare module 'vitest/browser' {
  interface BrowserCommands {
    chooseFile(selector: string, name: string, base64: string): Promise<void>;
  }
}
