import type { CallRecord } from '../../../domain/calls/callTypes.js';
import { toIsoTimestamp } from '../../../infrastructure/clock.js';
import type { CallDetail, CallListItem } from '../../schemas/callSchemas.js';

/** A call as list endpoints show it: fields with no value are omitted. */
export function toCallListItem(call: CallRecord): CallListItem {
  return {
    callId: call.id,
    title: call.title,
    ...(call.contactName !== null ? { contactName: call.contactName } : {}),
    direction: call.direction,
    status: call.status,
    ...(call.durationSeconds !== null ? { durationSeconds: call.durationSeconds } : {}),
    createdAt: toIsoTimestamp(call.createdAt),
  };
}

/** The call detail: the list fields plus phone number, recording time and failure reason. */
export function toCallDetail(call: CallRecord): CallDetail {
  return {
    ...toCallListItem(call),
    ...(call.phoneNumber !== null ? { phoneNumber: call.phoneNumber } : {}),
    ...(call.recordedAt !== null ? { recordedAt: toIsoTimestamp(call.recordedAt) } : {}),
    errorReason: call.status === 'FAILED' ? (call.errorReason ?? 'Processing failed') : null,
  };
}
