import { unlinkSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';

/** Temporary files being written now: removed if the process exits mid-write (`exit` runs on `process.exit` and after the last task). */
const inProgress = new Set<string>();
let exitHookInstalled = false;

/** Tells each temporary file of this process apart. */
let sequence = 0;

/**
 * Writes `text` (UTF-8) to `file` atomically: into a temporary file next to it
 * (`<file>.<pid>.<n>.tmp`, which no reader of `*.json` picks up), then renamed into place, so a reader
 * sees the whole file or none. Every byte is checked: a write that stores fewer bytes than asked (a
 * full tmpfs stores part of a 100 KB write and says so only by its count) is written on until done
 * or until the file system refuses (`ENOSPC`), and the temporary file's size is compared with the
 * text's byte length before the rename. On any failure the temporary file is removed and nothing
 * is left behind. write-file-atomic 7.0.1 does neither check (it left files cut at 53,248 bytes).
 *
 * Not flushed to the disk (no fsync): the caller flushes in batches (see RecordingWriter).
 *
 * @throws the file system's error (`code`: `ENOSPC`, `ENOENT`, `ENOTDIR`, `EIO`, ...), or an error with
 * code `ESHORTWRITE` when the file on disk is not the size written.
 */
export async function writeFileAtomically(file: string, text: string): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  const temporary = `${file}.${process.pid}.${sequence++}.tmp`;
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => {
      for (const path of inProgress) {
        try {
          unlinkSync(path);
        } catch {
          // Already gone.
        }
      }
    });
  }
  const handle = await open(temporary, 'wx');
  inProgress.add(temporary);
  try {
    try {
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, written);
        // A write that stores nothing and reports no error would loop for ever: call it a full disk.
        if (bytesWritten === 0)
          throw Object.assign(new Error(`no room for ${bytes.length - written} more bytes of ${temporary}`), {
            code: 'ENOSPC',
          });
        written += bytesWritten;
      }
      const { size } = await handle.stat();
      if (size !== bytes.length)
        throw Object.assign(new Error(`${temporary} holds ${size} bytes of ${bytes.length} written`), {
          code: 'ESHORTWRITE',
        });
    } finally {
      await handle.close();
    }
    await rename(temporary, file);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  } finally {
    inProgress.delete(temporary);
  }
}
