import { PrefixedError } from '../errors.js';

/**
 * A recording that could not be written. `code` is the system error code (`ENOSPC`, `ENOTDIR`,
 * `ENOENT`, `EIO`, `EFBIG`, ...; `EUNKNOWN` when the cause had none), `file` the recording's name in
 * `dir` (`meta-cp/0a1b2c3d4e5f-000.json`), `cause` the original error.
 */
export class RecordingWriteError extends PrefixedError {
  readonly code: string;
  readonly dir: string;
  readonly file: string;
  constructor(dir: string, file: string, cause: unknown) {
    const code = (cause as NodeJS.ErrnoException | undefined)?.code ?? 'EUNKNOWN';
    super(
      `Failed to write the recording ${file} into ${dir}: ${code} (${(cause as Error | undefined)?.message ?? String(cause)}).`,
      { cause },
    );
    this.name = 'RecordingWriteError';
    this.code = code;
    this.dir = dir;
    this.file = file;
  }
}
