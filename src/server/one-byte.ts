/** Texts shorter than this are copied by a loop here: a call to `Buffer#write` costs more than the copy. */
const LOOP_COPY_CHARACTERS = 64;
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
const NOT_ASCII = /[^\u0000-\u007f]/;

/**
 * Copies `text` into `bytes` from `at`, one byte per character, when each character is below
 * `limit` (`0x100`: latin1, as Node gives request targets and header values; `0x80`: ASCII, the
 * same bytes as UTF-8), and returns the offset after it; -1 (nothing meaningful written) when one
 * is not, or when it does not fit. Read it back with `bytes.toString('latin1', …)`. Cheaper than a
 * UTF-8 write, which transcodes character by character.
 */
export function copyOneByte(bytes: Buffer, at: number, text: string, limit: 0x80 | 0x100): number {
  const end = at + text.length;
  if (end > bytes.length) return -1;
  if (text.length < LOOP_COPY_CHARACTERS) {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code >= limit) return -1;
      bytes[at + i] = code;
    }
    return end;
  }
  if ((limit === 0x80 ? NOT_ASCII : NOT_LATIN1).test(text)) return -1;
  return at + bytes.write(text, at, text.length, 'latin1');
}
