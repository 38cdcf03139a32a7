import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PREPARED_FAMILIES, PREPARED_KEYS } from '../../src/db/prepared-keys.ts';

const fixed = Object.values(PREPARED_KEYS);
const families = Object.entries(PREPARED_FAMILIES);

describe('prepared query keys', () => {
  it('give every fixed query its own key', () => {
    expect(new Set(fixed).size).toBe(fixed.length);
  });

  it('start every family with a prefix that starts no other family prefix and no fixed key', () => {
    for (const [name, { prefix }] of families) {
      expect(prefix, name).not.toBe('');
      for (const [other, { prefix: otherPrefix }] of families) {
        if (other !== name) expect(otherPrefix.startsWith(prefix), `${name} / ${other}`).toBe(false);
      }
      for (const key of fixed) expect(key.startsWith(prefix), `${name} / ${key}`).toBe(false);
    }
  });

  it('build each family key from its own prefix', () => {
    expect(PREPARED_FAMILIES.findRow('chapters')).toBe(`${PREPARED_FAMILIES.findRow.prefix}chapters`);
    expect(PREPARED_FAMILIES.insertRow('chapters', ['id', 'rev'])).toBe(`${PREPARED_FAMILIES.insertRow.prefix}chapters id,rev`);
    expect(PREPARED_FAMILIES.hubAudience(3)).toBe(`${PREPARED_FAMILIES.hubAudience.prefix}3`);
  });

  it('are frozen', () => {
    expect(Object.isFrozen(PREPARED_KEYS)).toBe(true);
    expect(Object.isFrozen(PREPARED_FAMILIES)).toBe(true);
    for (const [, key] of families) expect(Object.isFrozen(key)).toBe(true);
  });

  it('are the only keys the server passes to runPrepared (no string written at a call)', () => {
    const src = fileURLToPath(new URL('../../src', import.meta.url));
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
    const literal = /runPrepared\(\s*[\w.]+(?:\s+as\s+\w+)?,\s*['"`]/;
    const offenders = files.filter((file) => literal.test(readFileSync(path.join(src, file), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
