/**
 * The whole read of a chosen project: sources checked, files read, binder and texts parsed. Runs in
 * the Scrivener worker (scrivener.worker.ts), or on the page where workers are missing.
 */
import { readProject, type ScrivenerProject } from './project';
import { MESSAGES, ScrivenerReadError, folderSource, zipSource } from './source';
import type { ScrivenerRequest } from './worker-protocol';

/** Throws ScrivenerReadError with the message the author sees. */
export async function readRequest(request: ScrivenerRequest, onProgress: (fraction: number) => void): Promise<ScrivenerProject> {
  try {
    const files = request.kind === 'folder' ? folderSource(request.files) : zipSource(new Uint8Array(await request.file.arrayBuffer()));
    return await readProject(files, onProgress);
  } catch (error) {
    if (error instanceof ScrivenerReadError) throw error;
    throw new ScrivenerReadError(MESSAGES.damaged);
  }
}
