import { version } from 'react';
import { version as domVersion } from 'react-dom';
import { expect, inject, it } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    reactMajor: number;
    /** Whether the tests that take the docs' pictures write them into docs/screenshots (vitest.config.ts). */
    updateScreenshots: boolean;
  }
}

it('runs on the React major its project names', () => {
  expect(version.split('.')[0]).toBe(String(inject('reactMajor')));
  expect(domVersion).toBe(version);
});
