import { ModelFormatError } from './ModelFormatError.js';

/**
 * Little-endian reads from a model file held in memory, each naming the field it reads: a file
 * that ends early or holds a value out of range is refused with a {@link ModelFormatError} that
 * says which field.
 */
export class ByteReader {
  /** Byte offset of the next read. */
  offset = 0;

  constructor(private readonly bytes: Buffer, readonly file: string) {}

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  fail(field: string, detail: string): never {
    throw new ModelFormatError(this.file, field, detail);
  }

  /** The next `length` bytes (a view, not a copy). */
  take(length: number, field: string): Buffer {
    if (length > this.remaining) this.fail(field, `the file ends after ${this.remaining} of its ${length} bytes (at byte ${this.offset}): truncated`);
    const slice = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return slice;
  }

  u8(field: string): number {
    return this.take(1, field).readUInt8(0);
  }

  u16(field: string): number {
    return this.take(2, field).readUInt16LE(0);
  }

  u32(field: string): number {
    return this.take(4, field).readUInt32LE(0);
  }

  i32(field: string): number {
    return this.take(4, field).readInt32LE(0);
  }
}
