import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { parseIsoTime, parseOrigins, parseScopes, parseWholeNumber } from './options.js';

describe('command-line option parsers', () => {
  it('reads scopes, refusing unknown ones', () => {
    expect(parseScopes('documents:read, documents:read,documents:write')).toEqual(['documents:read', 'documents:write']);
    expect(() => parseScopes('documents:delete')).toThrow(InvalidArgumentError);
    expect(() => parseScopes(',')).toThrow(/none given/);
  });

  it('reads ISO times with a zone and dates, normalised to UTC', () => {
    expect(parseIsoTime('2030-01-31')).toBe('2030-01-31T00:00:00.000Z');
    expect(parseIsoTime('2030-01-31T12:30:00+02:00')).toBe('2030-01-31T10:30:00.000Z');
    expect(parseIsoTime('2030-01-31T12:30:00.250Z')).toBe('2030-01-31T12:30:00.250Z');
    for (const bad of ['tomorrow', '2030-02-30', '2030-13-01', '2030-01-31T12:30:00', '2030-01-31T25:00:00Z', '1e12']) {
      expect(() => parseIsoTime(bad), bad).toThrow(InvalidArgumentError);
    }
  });

  it('reads origins as browsers send them, refusing paths and other shapes', () => {
    expect(parseOrigins('https://App.Acme.com, http://localhost:5173,https://a.com:443/')).toEqual([
      'https://app.acme.com',
      'http://localhost:5173',
      'https://a.com',
    ]);
    for (const bad of ['https://a.com/path', 'a.com', '*', 'https://a.com?x=1', 'https://user@a.com', 'ftp://a.com', 'https://a.com:99999']) {
      expect(() => parseOrigins(bad), bad).toThrow(/not an origin/);
    }
  });

  it('reads whole numbers within bounds', () => {
    const rateLimit = parseWholeNumber(1, 1000);
    expect(rateLimit('600')).toBe(600);
    for (const bad of ['0', '-1', '1.5', '1e3', 'abc', '1001']) expect(() => rateLimit(bad), bad).toThrow(InvalidArgumentError);
  });
});
