import {
  durationNumber,
  ELSE_HANDLE,
  isDelayUnit,
  waitMilliseconds,
  type FlowData,
  type FlowNode,
} from '@sendwell/contract/sequences';

/**
 * How one due enrolment moves through its flow: the pure part of the advancer (no database), so
 * every rule of a step is tested on its own. An enrolment sits at a node whose time has come
 * (next_run_at ≤ now): the node runs (an email step asks for its send, a condition picks a branch),
 * the enrolment moves to the next node and waits there for that node's wait (a Wait step's
 * duration, an email step's delay in days, a condition's optional wait); a node without a wait runs
 * at once in the same advance.
 */

/** What the enrolment knows of its previous email (the latest send row), for condition steps. */
export type LastEmail = { createdAt: Date; openedAt: Date | null; clickedAt: Date | null } | null;

export type WalkInput = {
  currentNodeId: string;
  stepCount: number;
  enteredAt: Date;
  lastEmail: LastEmail;
  /** The contact's latest recorded purchase, if any. */
  lastPurchaseAt: Date | null;
};

export type WalkResult = {
  nodeId: string;
  state: 'active' | 'completed' | 'exited';
  exitReason: string | null;
  nextRunAt: Date | null;
  stepCount: number;
  /** Email steps to send: the step number (the enrolment's step count on arrival) and the node. */
  sends: { step: number; nodeId: string }[];
  /** Each node run in this advance, with the branch a condition took. */
  ran: { nodeId: string; branch: 'normal' | 'else' | null }[];
  /** Each node the enrolment arrived at in this advance. */
  arrivals: string[];
};

/** Nodes one advance runs at most; validateFlow forbids loops without a wait, this only bounds a bad stored flow. */
const MAX_NODES_PER_ADVANCE = 100;

/** How long an enrolment waits on arriving at `node` before the node runs. */
export function arrivalWaitMs(node: FlowNode): number {
  if (node.type === 'email') {
    const days = durationNumber(node.data.delay ?? '0');
    return Number.isFinite(days) && days > 0 ? waitMilliseconds(days, 'days') : 0;
  }
  if (node.type === 'delay' || node.type === 'condition') {
    const duration = durationNumber(node.data.duration);
    const unit = node.data.unit ?? 'days';
    return Number.isFinite(duration) && duration > 0 && isDelayUnit(unit) ? waitMilliseconds(duration, unit) : 0;
  }
  return 0;
}

/** Whether a condition holds on the previous email of this enrolment (and the contact's purchases since). */
export function conditionHolds(
  node: FlowNode,
  input: Pick<WalkInput, 'lastEmail' | 'lastPurchaseAt' | 'enteredAt'>,
): boolean {
  const last = input.lastEmail;
  switch (node.data.condition ?? 'Email opened') {
    case 'Email opened':
      // A click is an open whose pixel was blocked.
      return Boolean(last && (last.openedAt || last.clickedAt));
    case 'Email clicked':
      return Boolean(last?.clickedAt);
    case 'No response':
      return !(last && (last.openedAt || last.clickedAt));
    case 'Purchased': {
      const since = last?.createdAt ?? input.enteredAt;
      return input.lastPurchaseAt !== null && input.lastPurchaseAt >= since;
    }
    default:
      return false;
  }
}

function nextOf(flow: FlowData, nodeId: string, branch: 'normal' | 'else'): string | null {
  const edge = flow.edges.find(
    (e) => e.source === nodeId && (branch === 'else' ? e.sourceHandle === ELSE_HANDLE : e.sourceHandle !== ELSE_HANDLE),
  );
  return edge?.target ?? null;
}

/** Runs the due node of one enrolment and every node after it that does not wait. */
export function walk(flow: FlowData, input: WalkInput, now: Date): WalkResult {
  const nodes = new Map(flow.nodes.map((node) => [node.id, node]));
  const result: WalkResult = {
    nodeId: input.currentNodeId,
    state: 'active',
    exitReason: null,
    nextRunAt: null,
    stepCount: input.stepCount,
    sends: [],
    ran: [],
    arrivals: [],
  };
  let lastEmail = input.lastEmail;
  let node = nodes.get(input.currentNodeId);
  for (let ran = 0; ; ran += 1) {
    if (!node) return { ...result, state: 'exited', exitReason: 'removed' };
    if (ran === MAX_NODES_PER_ADVANCE) return { ...result, nextRunAt: now };
    let branch: 'normal' | 'else' = 'normal';
    if (node.type === 'email') {
      result.sends.push({ step: result.stepCount, nodeId: node.id });
      lastEmail = { createdAt: now, openedAt: null, clickedAt: null };
    } else if (node.type === 'condition') {
      branch = conditionHolds(node, { lastEmail, lastPurchaseAt: input.lastPurchaseAt, enteredAt: input.enteredAt })
        ? 'normal'
        : 'else';
    }
    result.ran.push({ nodeId: node.id, branch: node.type === 'condition' ? branch : null });
    const nextId = nextOf(flow, node.id, branch);
    if (nextId === null) return { ...result, state: 'completed', nextRunAt: null };
    node = nodes.get(nextId);
    result.nodeId = nextId;
    result.arrivals.push(nextId);
    result.stepCount += 1;
    const wait = node ? arrivalWaitMs(node) : 0;
    if (wait > 0) return { ...result, nextRunAt: new Date(now.getTime() + wait) };
  }
}
