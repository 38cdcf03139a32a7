import { describe, expect, it } from 'vitest';
import { strToU8, zipSync } from 'fflate';
import { pickFolder } from './fixtures/load';
import { planImport } from './plan';
import { readProject } from './project';
import { MESSAGES, type PickedFile, folderSource, zipSource } from './source';

async function zipOf(picked: readonly PickedFile[], extra: Record<string, Uint8Array> = {}): Promise<Uint8Array> {
  const entries: Record<string, Uint8Array> = { ...extra };
  for (const { path, file } of picked) entries[path] = new Uint8Array(await file.arrayBuffer());
  return zipSync(entries);
}

/** A file whose bytes must never be read (its size is all the check may look at). */
const unreadable = (size: number): Blob =>
  ({
    size,
    arrayBuffer: () => Promise.reject(new Error('read a file it should not have')),
  }) as unknown as Blob;

describe('reading a project', () => {
  it('reads a .zip of the project folder, inside a wrapper folder too, the same as the folder', async () => {
    const picked = pickFolder('The Lantern Road.scriv');
    const fromFolder = planImport(await readProject(folderSource(picked)), { unit: 'text', foldersAsBooks: true });
    const wrapped = picked.map((p) => ({ ...p, path: `Backups/${p.path}` }));
    const fromZip = planImport(await readProject(zipSource(await zipOf(wrapped))), { unit: 'text', foldersAsBooks: true });
    expect(fromZip).toEqual(fromFolder);
  });

  it('refuses a .zip with a path that climbs out of the project, before inflating anything', async () => {
    const bytes = await zipOf(pickFolder('The Lantern Road.scriv'), { '../../evil.rtf': strToU8('{\\rtf1 x}') });
    expect(() => zipSource(bytes)).toThrow(MESSAGES.unsafeZip);
  });

  it('refuses what is not a zip', () => {
    expect(() => zipSource(strToU8('this is not a zip file at all'))).toThrow(MESSAGES.unreadableZip);
  });

  it('refuses a folder over 2 GB from the sizes alone, reading none of it', () => {
    const picked = [...pickFolder('The Lantern Road.scriv'), { path: 'The Lantern Road.scriv/Files/Data/X/content.mov', file: unreadable(2.5 * 1024 ** 3) }];
    expect(() => folderSource(picked)).toThrow(MESSAGES.tooLarge);
  });

  it('refuses a folder that is not a Scrivener project', () => {
    expect(() => folderSource([{ path: 'Novel/chapter1.docx', file: new Blob(['x']) }])).toThrow(MESSAGES.notAProject);
  });

  it('refuses a damaged binder with a clear message', async () => {
    const picked = pickFolder('The Lantern Road.scriv').map((p) => (p.path.endsWith('.scrivx') ? { ...p, file: new Blob(['<?xml version="1.0"?><ScrivenerProject Version="2.0"><Binder><BinderItem UUID="1" Type="Text">']) } : p));
    await expect(readProject(folderSource(picked))).rejects.toThrow(MESSAGES.damaged);
    const notXml = pickFolder('The Lantern Road.scriv').map((p) => (p.path.endsWith('.scrivx') ? { ...p, file: new Blob(['PK\u0003\u0004 binary']) } : p));
    await expect(readProject(folderSource(notXml))).rejects.toThrow(MESSAGES.damaged);
  });

  it('refuses a binder that declares entities', async () => {
    const picked = [
      { path: 'Bomb.scriv/Bomb.scrivx', file: new Blob(['<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><ScrivenerProject Version="2.0"><Binder/></ScrivenerProject>']) },
    ];
    await expect(readProject(folderSource(picked))).rejects.toThrow(MESSAGES.damaged);
  });

  it('refuses a Scrivener 1 or 2 project with the way to bring it in', async () => {
    const v2 = [
      { path: 'Old.scriv/Old.scrivx', file: new Blob(['<?xml version="1.0"?><ScrivenerProject Version="1.0"><Binder><BinderItem ID="3" Type="Text"><Title>One</Title></BinderItem></Binder></ScrivenerProject>']) },
      { path: 'Old.scriv/Files/Docs/3.rtf', file: new Blob(['{\\rtf1 One}']) },
    ];
    expect(() => folderSource(v2)).toThrow(MESSAGES.scrivener2);
    await expect(readProject(folderSource([v2[0]!]))).rejects.toThrow(MESSAGES.scrivener2);
  });
});
