/** BroadcastChannel names between the pool and its threads (Piscina's own ports carry tasks). */
export const workerControlChannel = 'callscope-worker-control';
export const workerAckChannel = 'callscope-worker-ack';

/** The one control message: free every long-lived native resource (models, sessions). */
export interface DisposeMessage {
  type: 'dispose';
}

/** A thread's answer to a dispose message: how many resources it freed. */
export interface DisposedMessage {
  type: 'disposed';
  threadId: number;
  resources: number;
}
