/** The last Scrivener import into a series, kept on this device so it can be undone after leaving the screen. */
import { readLocalJson, removeLocal, writeLocal } from '@/lib/storage';
import type { ImportRecord } from './write';

const storageKey = (seriesId: string) => `chronicler.scrivenerImport.${seriesId}`;

export function rememberImport(record: ImportRecord): void {
  writeLocal(storageKey(record.seriesId), JSON.stringify(record));
}

export function lastImport(seriesId: string): ImportRecord | null {
  return readLocalJson<ImportRecord>(storageKey(seriesId));
}

export function forgetImport(seriesId: string): void {
  removeLocal(storageKey(seriesId));
}
