import { readFile } from 'node:fs/promises';
import JSZip from 'jszip';

/**
 * The members of wheels (zip files) by name, each wheel read once per run; jszip checks each
 * member's CRC-32 as it inflates it.
 */
export class WheelReader {
  private readonly opened = new Map<string, Promise<JSZip>>();

  async member(wheelPath: string, member: string): Promise<Buffer> {
    let zip = this.opened.get(wheelPath);
    if (!zip) {
      zip = readFile(wheelPath).then((bytes) => JSZip.loadAsync(bytes, { checkCRC32: true }));
      this.opened.set(wheelPath, zip);
    }
    const entry = (await zip).file(member);
    if (!entry) throw new Error(`${wheelPath} holds no ${member}`);
    return entry.async('nodebuffer');
  }

  /** Forgets the wheels read so far (their bytes are large). */
  close(): void {
    this.opened.clear();
  }
}
