import { chown, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/** The uid a root test hands its folder to: `nobody` on Debian. */
export const NOBODY = 65534;

/**
 * A folder another user owns, for the report writers to refuse: as root, a new folder under
 * `parent` handed to {@link NOBODY}; as anyone else, `/`, which root owns.
 * @returns its path and its owner's uid.
 */
export async function foreignFolder(parent: string): Promise<{ path: string; owner: number }> {
  if (process.getuid?.() !== 0) return { path: '/', owner: 0 };
  const path = join(parent, 'someone-elses');
  await mkdir(path, { recursive: true });
  await chown(path, NOBODY, NOBODY);
  return { path, owner: NOBODY };
}
