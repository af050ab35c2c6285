/**
 * Strict UTF-8 for files a person may edit. Node's "utf8" decoding turns a bad byte into U+FFFD
 * without a word, so a key typed in another encoding (Latin-1 "é" is one byte 0xE9) came back as an
 * "unknown key" with a replacement character in it. These say where the first bad byte is instead.
 */
export class InvalidUtf8Error extends Error {
  constructor(
    /** Counted from 0, as `cmp`, `xxd` and `od` count. */
    readonly byte: number,
    /** The line it is on, counted from 1 as editors do. */
    readonly line: number,
  ) {
    super(`not valid UTF-8 at byte ${byte} (line ${line})`);
    this.name = "InvalidUtf8Error";
  }
}

const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The text of `bytes`, or InvalidUtf8Error naming the first byte that is not part of a valid UTF-8 sequence. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    const byte = firstInvalidByte(bytes);
    let line = 1;
    for (let index = 0; index < byte; index++)
      if (bytes[index] === 10) line += 1;
    throw new InvalidUtf8Error(byte, line);
  }
}

/** The offset of the first byte that starts an invalid sequence (RFC 3629: no overlongs, surrogates or code points past U+10FFFF). */
export function firstInvalidByte(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    // The allowed range of the second byte depends on the lead (Unicode Table 3-7); the rest are 80..BF.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      if (lead === 0xf4) high = 0x8f;
    } else return index;
    if (index + length > bytes.length) return index;
    const second = bytes[index + 1] as number;
    if (second < low || second > high) return index;
    for (let next = 2; next < length; next++) {
      const continuation = bytes[index + next] as number;
      if (continuation < 0x80 || continuation > 0xbf) return index;
    }
    index += length;
  }
  return bytes.length;
}
