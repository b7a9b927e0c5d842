import { open, type FileHandle } from 'node:fs/promises';

/**
 * The `metadata_props` of an ONNX model file (ModelProto field 14: key/value strings), which
 * onnxruntime-node does not expose. Read straight from the protobuf encoding: the file's
 * top-level fields are walked by their tags and lengths, and every field but field 14 is skipped
 * unread (the graph with its weights is most of the file), so a 26 MB model costs a few small reads.
 * Fails on a file that is not a protobuf message (a wire type ONNX never uses, a length past the end).
 */
export async function readOnnxMetadata(path: string): Promise<Map<string, string>> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const reader = new PositionalReader(handle, size);
    const metadata = new Map<string, string>();
    while (reader.position < size) {
      const tag = await reader.varint();
      const field = Math.floor(tag / 8);
      const wireType = tag % 8;
      if (wireType === wireTypes.lengthDelimited) {
        const length = await reader.varint();
        if (field === metadataPropsField) {
          const [key, value] = stringPair(await reader.bytes(length));
          metadata.set(key, value);
        } else {
          reader.skip(length);
        }
      } else if (wireType === wireTypes.varint) {
        await reader.varint();
      } else if (wireType === wireTypes.fixed64) {
        reader.skip(8);
      } else if (wireType === wireTypes.fixed32) {
        reader.skip(4);
      } else {
        throw new Error(`${path}: not an ONNX model (protobuf wire type ${wireType} at byte ${reader.position})`);
      }
      if (reader.position > size) throw new Error(`${path}: not an ONNX model (a field runs past the end of the file)`);
    }
    return metadata;
  } finally {
    await handle.close();
  }
}

/** ModelProto's `repeated StringStringEntryProto metadata_props = 14`. */
const metadataPropsField = 14;
const wireTypes = { varint: 0, fixed64: 1, lengthDelimited: 2, fixed32: 5 } as const;

/** StringStringEntryProto: `string key = 1; string value = 2;` */
function stringPair(message: Buffer): [string, string] {
  const strings = ['', ''];
  let position = 0;
  while (position < message.length) {
    const [tag, afterTag] = varintAt(message, position);
    const [length, afterLength] = varintAt(message, afterTag);
    if (tag % 8 !== wireTypes.lengthDelimited || afterLength + length > message.length) throw new Error('ONNX metadata entry is not a key/value pair');
    const field = Math.floor(tag / 8);
    if (field === 1 || field === 2) strings[field - 1] = message.toString('utf8', afterLength, afterLength + length);
    position = afterLength + length;
  }
  return [strings[0]!, strings[1]!];
}

function varintAt(buffer: Buffer, start: number): [number, number] {
  let value = 0;
  let scale = 1;
  for (let position = start; position < buffer.length && position < start + 10; position++) {
    const byte = buffer[position]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return [value, position + 1];
    scale *= 128;
  }
  throw new Error('ONNX metadata entry has a broken varint');
}

/** Reads a file forward by position; skipping costs nothing. */
class PositionalReader {
  position = 0;

  constructor(private readonly handle: FileHandle, private readonly size: number) {}

  async varint(): Promise<number> {
    const buffer = await this.bytes(Math.min(10, this.size - this.position), false);
    const [value, end] = varintAt(buffer, 0);
    this.position += end;
    return value;
  }

  async bytes(length: number, advance = true): Promise<Buffer> {
    if (this.position + length > this.size) throw new Error('ONNX file ends inside a field');
    const buffer = Buffer.alloc(length);
    await this.handle.read(buffer, 0, length, this.position);
    if (advance) this.position += length;
    return buffer;
  }

  skip(length: number): void {
    this.position += length;
  }
}
