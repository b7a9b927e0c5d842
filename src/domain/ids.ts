/** Canonical UUID text: ids of calls, action items and users (no braces, no `urn:uuid:` prefix). */
export const uuidPattern = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const uuidRegExp = new RegExp(uuidPattern);

/** For ids that arrive where no schema checks them (lists in query strings and bodies, the CLI). */
export const isUuid = (value: string): boolean => uuidRegExp.test(value);
