import type { calls } from '../../infrastructure/database/tables.js';

export const callStatuses = ['QUEUED', 'TRANSCRIBING', 'ANALYZING', 'COMPLETED', 'FAILED'] as const;
export type CallStatus = (typeof callStatuses)[number];

export const callDirections = ['INCOMING', 'OUTGOING', 'UNKNOWN'] as const;
export type CallDirection = (typeof callDirections)[number];

/** Statuses a call never leaves on its own; only these may be deleted. */
export const terminalStatuses: readonly CallStatus[] = ['COMPLETED', 'FAILED'];

export function isTerminal(status: CallStatus): boolean {
  return terminalStatuses.includes(status);
}

export type CallRecord = typeof calls.$inferSelect;
export type NewCallRecord = typeof calls.$inferInsert;

/** The upload metadata envelope of the specification, after validation. */
export interface CallMetadata {
  title?: string;
  contactName?: string;
  contactId?: string;
  phoneNumber?: string;
  organization?: string;
  direction?: CallDirection;
  recordedAt?: string;
  durationSeconds?: number;
}
