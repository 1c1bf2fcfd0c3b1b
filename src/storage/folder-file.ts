import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, realpathSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';

/**
 * The text of a file of a folder, or why it is not read: a file that is no regular file (a FIFO, a
 * device, a socket, a folder), or a symbolic link to something outside the folder. A FIFO is never
 * waited on (it is opened without blocking and refused), a link leaving the folder never opened.
 */
export type FolderFileRead = { text: string; problem?: undefined } | { text?: undefined; problem: string };

/** Opened without waiting (a FIFO with no writer), and not through a symbolic link (its target is checked first). */
const NOT_BLOCKING = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const NOT_FOLLOWING = NOT_BLOCKING | (constants.O_NOFOLLOW ?? 0);

/** What a file that is not a regular one is, for the problem: `a FIFO`. */
function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'not a file';
}

const notRegular = (stats: Stats) => `not a regular file (${kindOf(stats)}); only regular files are read`;

/** Why a symbolic link at `file` is not followed (its target is outside `root`), or `undefined` to follow it. */
function linkProblem(root: string, file: string, what: string): string | undefined {
  let target: string;
  try {
    target = realpathSync(file);
  } catch (error) {
    return `a symbolic link that leads nowhere (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`;
  }
  const inside = relative(realpathSync(root), target);
  return inside.startsWith('..') || isAbsolute(inside)
    ? `a symbolic link leading outside the ${what}; copy what it names into the folder instead`
    : undefined;
}

/** True for the error of opening a symbolic link with `O_NOFOLLOW`. */
const isLink = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ELOOP';

/**
 * Why a symbolic link at `path` (a file or folder inside `root`) is not followed, or `undefined` when
 * `path` is no link or one to a place inside `root`. `what` names the folder (`recording folder`).
 */
export function leavesFolder(root: string, path: string, what: string): string | undefined {
  return lstatSync(path).isSymbolicLink() ? linkProblem(root, path, what) : undefined;
}

/** Where the system has no `O_NOFOLLOW` (Windows), throws the error it gives for a symbolic link, found with `lstat`. */
function refuseLinkWithoutNoFollow(file: string): void {
  if (constants.O_NOFOLLOW === undefined && lstatSync(file).isSymbolicLink())
    throw Object.assign(new Error(`${file} is a symbolic link`), { code: 'ELOOP' });
}

/**
 * Reads `file` (a path inside `root`) as UTF-8 text, unless it is no regular file or a symbolic link
 * leaving `root` (see {@link FolderFileRead}); `what` names the folder in the problem (`recording
 * folder`). A symbolic link inside `root` is read as the file it names.
 *
 * @throws the file system's error when the file cannot be opened or read (ENOENT, EACCES…).
 * @example readFolderFileSync('recordings/s1', 'recordings/s1/meta-cp/0a1b2c3d4e5f-000.json', 'recording folder')
 */
export function readFolderFileSync(root: string, file: string, what: string): FolderFileRead {
  let fd: number;
  try {
    refuseLinkWithoutNoFollow(file);
    fd = openSync(file, NOT_FOLLOWING);
  } catch (error) {
    if (!isLink(error)) throw error;
    const problem = linkProblem(root, file, what);
    if (problem) return { problem };
    fd = openSync(file, NOT_BLOCKING);
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() ? { text: readFileSync(fd, 'utf8') } : { problem: notRegular(stats) };
  } finally {
    closeSync(fd);
  }
}

/** As {@link readFolderFileSync}, without blocking the event loop (a server reads its recordings with it). */
export async function readFolderFile(root: string, file: string, what: string): Promise<FolderFileRead> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    refuseLinkWithoutNoFollow(file);
    handle = await open(file, NOT_FOLLOWING);
  } catch (error) {
    if (!isLink(error)) throw error;
    const problem = linkProblem(root, file, what);
    if (problem) return { problem };
    handle = await open(file, NOT_BLOCKING);
  }
  try {
    const stats = await handle.stat();
    return stats.isFile() ? { text: await handle.readFile('utf8') } : { problem: notRegular(stats) };
  } finally {
    await handle.close();
  }
}
