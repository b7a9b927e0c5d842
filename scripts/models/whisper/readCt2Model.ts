import { ByteReader } from '../ByteReader.js';

/**
 * CTranslate2's `model.bin` (the format faster-whisper loads), binary versions 4 to 6, all
 * little-endian:
 *
 *   u32 binary version
 *   string spec name (`WhisperSpec`), u32 spec revision
 *   u32 variable count, then per variable:
 *     string name (`encoder/layer_0/self_attention/linear_0/weight`), u8 rank, u32 dims[rank]
 *     (outermost first), u8 data type (index into {@link ct2DataTypes}), u32 byte count, data
 *   u32 alias count, then per alias: string alias name, string name of the variable it shares
 *
 * where a string is a u16 length (counting a closing NUL), its UTF-8 bytes and the NUL. Scalars
 * (rank 0) carry settings (`decoder/num_heads`); quantised weights come with a `<name>_scale`
 * variable. Versions before 4 stored an item size instead of the data type and are refused.
 */

/** CTranslate2's data type ids, in the order of its `DataType` enum. */
export const ct2DataTypes = ['float32', 'int8', 'int16', 'int32', 'float16', 'bfloat16'] as const;
export type Ct2DataType = (typeof ct2DataTypes)[number];

const bytesPerItem: Record<Ct2DataType, number> = { float32: 4, int8: 1, int16: 2, int32: 4, float16: 2, bfloat16: 2 };

/** Binary versions whose layout is the one above (version 6 is CTranslate2 4.x's). */
export const supportedCt2BinaryVersions = [4, 5, 6] as const;

export interface Ct2Variable {
  name: string;
  /** Dimensions, outermost first (numpy order). Empty for a scalar. */
  shape: number[];
  dataType: Ct2DataType;
  /** The values, little-endian, row-major: a view into the file's bytes. */
  data: Buffer;
}

export interface Ct2Model {
  binaryVersion: number;
  specName: string;
  specRevision: number;
  variables: Map<string, Ct2Variable>;
  /** Alias name → name of the variable whose data it shares (`decoder/projection/weight` → `decoder/embeddings/weight`). */
  aliases: Map<string, string>;
}

/** Reads a whole `model.bin` held in memory; `file` names it in errors. */
export function readCt2Model(bytes: Buffer, file: string): Ct2Model {
  const reader = new ByteReader(bytes, file);
  const binaryVersion = reader.u32('binary version');
  if (!(supportedCt2BinaryVersions as readonly number[]).includes(binaryVersion)) {
    reader.fail('binary version', `is ${binaryVersion}, expected one of ${supportedCt2BinaryVersions.join(', ')} (not a CTranslate2 model.bin of a version this reader knows)`);
  }
  const specName = readString(reader, 'spec name');
  const specRevision = reader.u32('spec revision');
  const variableCount = reader.u32('variable count');
  const variables = new Map<string, Ct2Variable>();
  for (let index = 0; index < variableCount; index += 1) {
    const variable = readVariable(reader, `variable ${index}`);
    if (variables.has(variable.name)) reader.fail(`variable ${index} (${variable.name})`, 'the name is used twice');
    variables.set(variable.name, variable);
  }
  const aliasCount = reader.u32('alias count');
  const aliases = new Map<string, string>();
  for (let index = 0; index < aliasCount; index += 1) {
    const alias = readString(reader, `alias ${index} name`);
    const target = readString(reader, `alias ${index} (${alias}) target`);
    if (!variables.has(target)) reader.fail(`alias ${index} (${alias})`, `names ${target}, which is no variable of the file`);
    aliases.set(alias, target);
  }
  if (reader.remaining !== 0) reader.fail('end of file', `${reader.remaining} bytes follow the aliases, expected none`);
  return { binaryVersion, specName, specRevision, variables, aliases };
}

function readVariable(reader: ByteReader, field: string): Ct2Variable {
  const name = readString(reader, `${field} name`);
  const named = `${field} (${name})`;
  const rank = reader.u8(`${named} rank`);
  const shape = Array.from({ length: rank }, (_, axis) => reader.u32(`${named} dimension ${axis}`));
  const typeId = reader.u8(`${named} data type`);
  const dataType = ct2DataTypes[typeId];
  if (dataType === undefined) reader.fail(`${named} data type`, `is ${typeId}, expected 0 to ${ct2DataTypes.length - 1} (${ct2DataTypes.join(', ')})`);
  const byteCount = reader.u32(`${named} byte count`);
  const expectedBytes = shape.reduce((product, size) => product * size, 1) * bytesPerItem[dataType];
  if (byteCount !== expectedBytes) reader.fail(`${named} byte count`, `is ${byteCount}, but ${dataType} [${shape.join(', ')}] takes ${expectedBytes}`);
  return { name, shape, dataType, data: reader.take(byteCount, `${named} data`) };
}

function readString(reader: ByteReader, field: string): string {
  const length = reader.u16(`${field} length`);
  if (length === 0) reader.fail(field, 'has length 0; a string counts its closing NUL');
  const bytes = reader.take(length, field);
  if (bytes[length - 1] !== 0) reader.fail(field, 'does not end with a NUL byte');
  return bytes.subarray(0, length - 1).toString('utf8');
}
