import { z } from 'zod';
import { emailBlockSchema } from './campaigns.ts';
import { rowIdSchema } from './common.ts';

/** Spec part 2 §9: the builder's delay units and condition choices. */
export const DELAY_UNITS = ['minutes', 'hours', 'days', 'weeks'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];
export const CONDITION_CHOICES = ['Email opened', 'Email clicked', 'No response', 'Purchased'] as const;
export type ConditionChoice = (typeof CONDITION_CHOICES)[number];

/** What enrols a contact (issue 19 §3); 'signup' is the spec's default on creation. */
export const TRIGGER_TYPES = ['signup', 'segment_joined', 'tag_added', 'custom_event', 'manual'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
export const SEQUENCE_STATUSES = ['draft', 'active', 'paused'] as const;
export type SequenceStatus = (typeof SEQUENCE_STATUSES)[number];
/** Whether a contact may enter a sequence again: never, whenever it is not in it now, or after a cooldown. */
export const REENTRY_RULES = ['once', 'every_time', 'cooldown'] as const;
export type ReentryRule = (typeof REENTRY_RULES)[number];
export const ENROLMENT_STATES = ['active', 'completed', 'exited'] as const;
export type EnrolmentState = (typeof ENROLMENT_STATES)[number];

/** Spec part 2 §3/§9: the start node every new flow has. */
export const START_NODE_ID = 'start';
export const START_NODE_LABEL = 'Sequence Start';
export const START_POSITION = { x: 400, y: 50 } as const;
/** The source handle of a condition node's else output. */
export const ELSE_HANDLE = 'else';

export const MAX_FLOW_NODES = 500;
export const MAX_FLOW_EDGES = 1000;
/** The longest single wait: about ten years, so next_run_at stays a sane timestamp. */
export const MAX_WAIT_MINUTES = 10 * 366 * 24 * 60;

const MINUTES_PER_UNIT: Record<DelayUnit, number> = { minutes: 1, hours: 60, days: 1440, weeks: 10_080 };

export function isDelayUnit(unit: unknown): unit is DelayUnit {
  return typeof unit === 'string' && (DELAY_UNITS as readonly string[]).includes(unit);
}

/** A duration as the builder stores it (a numeric string, or a number) as a number, NaN when it is none. */
export function durationNumber(value: string | number | undefined): number {
  if (value === undefined) return Number.NaN;
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}

/** A wait in milliseconds (duration × unit), rounded to whole seconds. */
export function waitMilliseconds(duration: number, unit: DelayUnit): number {
  return Math.round(duration * MINUTES_PER_UNIT[unit] * 60) * 1000;
}

const nodeIdSchema = z.string({ error: 'Each node needs an id' }).trim().min(1, 'Each node needs an id').max(100);
const numberText = z.union([z.string().max(20), z.number()]);

/**
 * A node's data: every step type's fields, each optional here; validateFlow checks the ones its type
 * needs and names the node when one is wrong (zod alone would name only a path).
 */
export const flowNodeDataSchema = z.object({
  label: z.string().max(200).optional(),
  /** Email: subject and HTML content, optionally the campaign editor's blocks it was made from. */
  subject: z.string().max(300).optional(),
  content: z.string().max(500_000).optional(),
  blocks: z.array(emailBlockSchema).max(200).optional(),
  /** Email: days to wait before sending (spec: a string, default '0'). */
  delay: numberText.optional(),
  /** Delay (and, optionally, condition): how long to wait. */
  duration: numberText.optional(),
  unit: z.string().max(20).optional(),
  /** Condition: which behaviour it tests. */
  condition: z.string().max(50).optional(),
  /** Condition: the else output deliberately ends the sequence (instead of being connected). */
  elseEnds: z.boolean().optional(),
});
export type FlowNodeData = z.infer<typeof flowNodeDataSchema>;

export const FLOW_NODE_TYPES = ['input', 'email', 'delay', 'condition'] as const;
export type FlowNodeType = (typeof FLOW_NODE_TYPES)[number];

export const flowNodeSchema = z.object({
  id: nodeIdSchema,
  type: z.enum(FLOW_NODE_TYPES, { error: 'A node type must be input, email, delay or condition' }),
  position: z.object({ x: z.number().finite(), y: z.number().finite() }),
  data: flowNodeDataSchema.default({}),
  style: z.record(z.string().max(50), z.union([z.string().max(200), z.number()])).optional(),
});
export type FlowNode = z.infer<typeof flowNodeSchema>;

export const flowEdgeSchema = z.object({
  id: z.string().trim().min(1, 'Each edge needs an id').max(200),
  source: nodeIdSchema,
  target: nodeIdSchema,
  sourceHandle: z.string().max(50).nullish(),
  targetHandle: z.string().max(50).nullish(),
});
export type FlowEdge = z.infer<typeof flowEdgeSchema>;

export type FlowData = { nodes: FlowNode[]; edges: FlowEdge[] };

/** The one problem validateFlow found: where it is (a path into flowData) and what it says. */
export type FlowProblem = { path: (string | number)[]; nodeId: string | null; message: string };

/** "Email 1 (email-1)": how messages name a node. */
function nodeName(node: FlowNode): string {
  const label = node.data.label?.trim();
  return label && label !== node.id ? `${label} (${node.id})` : node.id;
}

/** The shortest total wait a loop of a flow may have: a contact goes round it at most once a day. */
export const MIN_LOOP_WAIT_MINUTES = 24 * 60;

/** How long an enrolment waits on arriving at `node`, in minutes (0 when it does not wait, or the wait is unreadable). */
function arrivalWaitMinutes(node: FlowNode): number {
  const minutes =
    node.type === 'email'
      ? durationNumber(node.data.delay ?? '0') * MINUTES_PER_UNIT.days
      : node.type === 'delay' || node.type === 'condition'
        ? durationNumber(node.data.duration) *
          (isDelayUnit(node.data.unit ?? 'days') ? MINUTES_PER_UNIT[(node.data.unit ?? 'days') as DelayUnit] : 0)
        : 0;
  return Number.isFinite(minutes) && minutes > 0 ? minutes : 0;
}

/**
 * The first node (in flow order) on a loop whose waits add up to less than MIN_LOOP_WAIT_MINUTES,
 * with that loop's shortest total; null when every loop waits at least that long. For each node,
 * the shortest way back to it (Dijkstra over the waits of the nodes entered) is its shortest loop.
 */
function shortLoop(flow: FlowData, next: Map<string, string[]>): { index: number; minutes: number } | null {
  const wait = new Map(flow.nodes.map((node) => [node.id, arrivalWaitMinutes(node)]));
  for (const [index, root] of flow.nodes.entries()) {
    const best = new Map<string, number>();
    const done = new Set<string>();
    for (const child of next.get(root.id) ?? []) {
      const cost = wait.get(child) ?? 0;
      if (cost < (best.get(child) ?? Infinity)) best.set(child, cost);
    }
    for (;;) {
      let id: string | null = null;
      let cost = Infinity;
      for (const [candidate, value] of best) {
        if (!done.has(candidate) && value < cost) [id, cost] = [candidate, value];
      }
      if (id === null || cost >= MIN_LOOP_WAIT_MINUTES) break;
      if (id === root.id) return { index, minutes: cost };
      done.add(id);
      for (const child of next.get(id) ?? []) {
        const through = cost + (wait.get(child) ?? 0);
        if (through < (best.get(child) ?? Infinity)) best.set(child, through);
      }
    }
  }
  return null;
}

/** "90 minutes", "6 hours": a loop's total wait as messages say it. */
function minutesText(minutes: number): string {
  if (minutes % 60 !== 0) return `${Math.round(minutes)} minute${Math.round(minutes) === 1 ? '' : 's'}`;
  return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
}

/** A node that makes the flow wait: a delay step, or a condition with a wait before it tests. */
function waits(node: FlowNode): boolean {
  if (node.type === 'delay') return true;
  return node.type === 'condition' && durationNumber(node.data.duration) > 0;
}

function checkWait(node: FlowNode, required: boolean): string | null {
  const name = nodeName(node);
  if (!required && node.data.duration === undefined && node.data.unit === undefined) return null;
  const duration = durationNumber(node.data.duration);
  if (!Number.isFinite(duration) || (required ? duration <= 0 : duration < 0)) {
    return `${name}: the wait must be a ${required ? 'positive ' : ''}number`;
  }
  const unit = node.data.unit ?? 'days';
  if (!isDelayUnit(unit)) return `${name}: the unit must be minutes, hours, days or weeks`;
  if (duration * MINUTES_PER_UNIT[unit] > MAX_WAIT_MINUTES) return `${name}: a wait can be at most 10 years`;
  return null;
}

/** The problem with one node's own settings, or null. */
function nodeProblem(node: FlowNode): string | null {
  const name = nodeName(node);
  switch (node.type) {
    case 'input':
      return null;
    case 'email': {
      const subject = node.data.subject?.trim() ?? '';
      if (subject === '') return `${name} needs a subject`;
      if (/[\r\n]/.test(subject)) return `${name}: the subject cannot contain line breaks`;
      if ((node.data.content?.trim() ?? '') === '' && (node.data.blocks?.length ?? 0) === 0) {
        return `${name} needs content`;
      }
      if (node.data.delay !== undefined) {
        const days = durationNumber(node.data.delay);
        if (!Number.isFinite(days) || days < 0) return `${name}: the delay in days must be a number of 0 or more`;
        if (days * MINUTES_PER_UNIT.days > MAX_WAIT_MINUTES) return `${name}: a wait can be at most 10 years`;
      }
      return null;
    }
    case 'delay':
      return checkWait(node, true);
    case 'condition': {
      const condition = node.data.condition ?? CONDITION_CHOICES[0];
      if (!(CONDITION_CHOICES as readonly string[]).includes(condition)) {
        return `${name}: the condition must be ${CONDITION_CHOICES.join(', ')}`;
      }
      return checkWait(node, false);
    }
  }
}

/**
 * The first problem that stops a flow from running, or null: one start node, unique node ids, each
 * node's settings, edges only between existing nodes (never into the start), one next step per
 * output, a condition's else output connected or marked to end, no loop without a wait in it, and
 * no loop that waits less than 1 day in all.
 */
export function validateFlow(flow: FlowData): FlowProblem | null {
  const byId = new Map<string, { node: FlowNode; index: number }>();
  for (const [index, node] of flow.nodes.entries()) {
    if (byId.has(node.id))
      return { path: ['nodes', index, 'id'], nodeId: node.id, message: `Two nodes have the id '${node.id}'` };
    byId.set(node.id, { node, index });
  }
  const starts = flow.nodes.filter((node) => node.type === 'input');
  if (starts.length === 0) return { path: ['nodes'], nodeId: null, message: 'The flow needs a start node' };
  if (starts.length > 1) {
    const second = starts[1] as FlowNode;
    return {
      path: ['nodes', byId.get(second.id)?.index ?? 0],
      nodeId: second.id,
      message: `The flow has more than one start node: ${nodeName(second)}`,
    };
  }
  for (const [index, node] of flow.nodes.entries()) {
    const message = nodeProblem(node);
    if (message) return { path: ['nodes', index], nodeId: node.id, message };
  }

  const next = new Map<string, string[]>();
  const outputs = new Set<string>();
  for (const [index, edge] of flow.edges.entries()) {
    const source = byId.get(edge.source)?.node;
    const target = byId.get(edge.target)?.node;
    const path = ['edges', index];
    if (!source)
      return {
        path,
        nodeId: edge.source,
        message: `Edge ${edge.id} starts at a node that does not exist (${edge.source})`,
      };
    if (!target)
      return {
        path,
        nodeId: edge.target,
        message: `Edge ${edge.id} ends at a node that does not exist (${edge.target})`,
      };
    if (target.type === 'input')
      return { path, nodeId: target.id, message: `Edge ${edge.id} leads into the start node` };
    const isElse = edge.sourceHandle === ELSE_HANDLE;
    if (isElse && source.type !== 'condition') {
      return { path, nodeId: source.id, message: `${nodeName(source)} has no else output: only a condition has one` };
    }
    const output = `${source.id}\u0000${isElse ? ELSE_HANDLE : ''}`;
    if (outputs.has(output)) {
      return {
        path,
        nodeId: source.id,
        message: `${nodeName(source)} has two next steps from its ${isElse ? 'else' : 'normal'} output; connect only one`,
      };
    }
    outputs.add(output);
    next.set(source.id, [...(next.get(source.id) ?? []), target.id]);
  }
  for (const [index, node] of flow.nodes.entries()) {
    if (node.type === 'condition' && !node.data.elseEnds && !outputs.has(`${node.id}\u0000${ELSE_HANDLE}`)) {
      return {
        path: ['nodes', index],
        nodeId: node.id,
        message: `${nodeName(node)}: connect its else output or mark it to end the sequence`,
      };
    }
  }

  // A loop must pass a wait, or one advance would go round it for ever: look for a cycle among the
  // nodes that do not wait (iterative depth-first search; gray = on the current path).
  const color = new Map<string, 'gray' | 'black'>();
  for (const root of flow.nodes) {
    if (color.has(root.id) || waits(root)) continue;
    const stack: { id: string; children: string[] }[] = [{ id: root.id, children: [...(next.get(root.id) ?? [])] }];
    color.set(root.id, 'gray');
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { id: string; children: string[] };
      const child = top.children.pop();
      if (child === undefined) {
        color.set(top.id, 'black');
        stack.pop();
        continue;
      }
      const entry = byId.get(child) as { node: FlowNode; index: number };
      if (waits(entry.node)) continue;
      if (color.get(child) === 'gray') {
        return {
          path: ['nodes', entry.index],
          nodeId: child,
          message: `${nodeName(entry.node)} is on a loop with no wait in it; add a Wait step to the loop`,
        };
      }
      if (!color.has(child)) {
        color.set(child, 'gray');
        stack.push({ id: child, children: [...(next.get(child) ?? [])] });
      }
    }
  }
  // A loop that waits less than a day in all would mail a contact several times a day (issue 27:
  // "email → wait 1 minute → back" is ~1,440 emails a day), so every loop waits at least 1 day.
  const short = shortLoop(flow, next);
  if (short) {
    const node = flow.nodes[short.index] as FlowNode;
    return {
      path: ['nodes', short.index],
      nodeId: node.id,
      message: `${nodeName(node)} is on a loop that waits only ${minutesText(short.minutes)} in all; a loop must wait at least 1 day`,
    };
  }
  return null;
}

/** The flow every new sequence starts with: the start node only. */
export function startOnlyFlow(): FlowData {
  return {
    nodes: [
      {
        id: START_NODE_ID,
        type: 'input',
        position: { ...START_POSITION },
        data: { label: START_NODE_LABEL },
      },
    ],
    edges: [],
  };
}

/** flowData as the API takes it: nodes and edges, checked by validateFlow (a 400 names the node). */
export const flowDataSchema = z
  .object({
    nodes: z.array(flowNodeSchema).max(MAX_FLOW_NODES, `At most ${MAX_FLOW_NODES} nodes`),
    edges: z.array(flowEdgeSchema).max(MAX_FLOW_EDGES, `At most ${MAX_FLOW_EDGES} edges`),
  })
  .superRefine((flow, ctx) => {
    const problem = validateFlow(flow);
    if (problem) ctx.addIssue({ code: 'custom', path: problem.path, message: problem.message });
  });

export const triggerConfigSchema = z.object({
  /** signup: the list whose new members enter (none: any list). */
  listId: rowIdSchema('listId must be a list id').nullish(),
  /** segment_joined: the segment whose new members enter. */
  segmentId: rowIdSchema('segmentId must be a segment id').nullish(),
  /** tag_added: the tag whose addition enrols. */
  tag: z.string().trim().max(100).nullish(),
  /** custom_event: the event name posted to the API. */
  eventName: z.string().trim().max(100).nullish(),
});
export type TriggerConfig = z.infer<typeof triggerConfigSchema>;

const sequenceFields = {
  name: z
    .string({ error: 'Please enter a sequence name' })
    .trim()
    .min(1, 'Please enter a sequence name')
    .max(200, 'Sequence name must be at most 200 characters'),
  description: z
    .string()
    .trim()
    .max(2000, 'Description must be at most 2000 characters')
    .nullish()
    .transform((v) => v || null),
  triggerType: z.enum(TRIGGER_TYPES, { error: `The trigger must be one of ${TRIGGER_TYPES.join(', ')}` }),
  triggerConfig: triggerConfigSchema,
  status: z.enum(SEQUENCE_STATUSES, { error: 'Status must be draft, active or paused' }),
  flowData: flowDataSchema,
  reentry: z.enum(REENTRY_RULES, { error: 'Re-entry must be once, every_time or cooldown' }),
  reentryCooldownHours: z
    .number({ error: 'The cooldown must be a number of hours' })
    .int('The cooldown must be a whole number of hours')
    .min(1, 'The cooldown must be at least 1 hour')
    .max(87_840, 'The cooldown can be at most 10 years'),
  /** The From of the sequence's emails (default: the account's own address). */
  fromEmail: z
    .string({ error: 'Invalid email format' })
    .trim()
    .pipe(z.email('Invalid email format'))
    .transform((v) => v.toLowerCase())
    .nullish(),
  fromName: z
    .string()
    .trim()
    .max(120, 'From name must be at most 120 characters')
    .refine((v) => !/[\r\n]/.test(v), { message: 'From name cannot contain line breaks' })
    .nullish()
    .transform((v) => v || null),
};

/** The trigger's setting that the trigger needs, checked on create and on update of either. */
function requireTriggerSetting(
  value: { triggerType?: TriggerType | undefined; triggerConfig?: TriggerConfig | undefined },
  ctx: z.RefinementCtx,
) {
  const config = value.triggerConfig ?? {};
  if (value.triggerType === 'segment_joined' && !config.segmentId) {
    ctx.addIssue({
      code: 'custom',
      path: ['triggerConfig', 'segmentId'],
      message: 'Choose the segment that enrols contacts',
    });
  } else if (value.triggerType === 'tag_added' && !config.tag) {
    ctx.addIssue({ code: 'custom', path: ['triggerConfig', 'tag'], message: 'Enter the tag that enrols contacts' });
  } else if (value.triggerType === 'custom_event' && !config.eventName) {
    ctx.addIssue({
      code: 'custom',
      path: ['triggerConfig', 'eventName'],
      message: 'Enter the event name that enrols contacts',
    });
  }
}

/** POST /api/email-sequences (spec part 2 §7: name, description, triggerType, flowData, status). */
export const createSequenceBodySchema = z
  .object({
    ...sequenceFields,
    triggerType: sequenceFields.triggerType.default('signup'),
    triggerConfig: sequenceFields.triggerConfig.default({}),
    status: sequenceFields.status.default('draft'),
    flowData: sequenceFields.flowData.default(startOnlyFlow),
    reentry: sequenceFields.reentry.default('once'),
    reentryCooldownHours: sequenceFields.reentryCooldownHours.nullish(),
  })
  .superRefine((body, ctx) => {
    requireTriggerSetting(body, ctx);
    if (body.reentry === 'cooldown' && !body.reentryCooldownHours) {
      ctx.addIssue({ code: 'custom', path: ['reentryCooldownHours'], message: 'Enter the cooldown in hours' });
    }
  });
export type CreateSequenceBody = z.input<typeof createSequenceBodySchema>;

/** PATCH /api/email-sequences/:id: the same fields, each optional (absent means unchanged). */
export const updateSequenceBodySchema = z
  .object({ ...sequenceFields, reentryCooldownHours: sequenceFields.reentryCooldownHours.nullish() })
  .partial()
  .superRefine((body, ctx) => {
    if (body.triggerType !== undefined) requireTriggerSetting(body, ctx);
  });
export type UpdateSequenceBody = z.input<typeof updateSequenceBodySchema>;

export const sequenceSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  status: z.enum(SEQUENCE_STATUSES),
  triggerType: z.enum(TRIGGER_TYPES),
  triggerConfig: triggerConfigSchema,
  reentry: z.enum(REENTRY_RULES),
  reentryCooldownHours: z.number().int().nullable(),
  fromEmail: z.string().nullable(),
  fromName: z.string().nullable(),
  /** Enrolments ever made, and those still moving through the flow. */
  totalSubscribers: z.number().int(),
  activeSubscribers: z.number().int(),
  flowData: z.object({ nodes: z.array(flowNodeSchema), edges: z.array(flowEdgeSchema) }),
  /** The published version of flowData; an edit with enrolments in flight publishes the next one. */
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Sequence = z.infer<typeof sequenceSchema>;
export const sequenceListSchema = z.array(sequenceSchema);

/** POST /api/email-sequences/:id/edit-impact: what saving this flow would do to the enrolments in flight. */
export const editImpactBodySchema = z.object({ flowData: flowDataSchema });
export const editImpactSchema = z.object({
  /** Enrolments still moving through the flow. */
  active: z.number().int(),
  /** Of those, the ones whose current node survives the edit: they move on in the new version. */
  moving: z.number().int(),
  /** The others finish on the version they are on. */
  finishingOnOld: z.number().int(),
  /** Whether saving publishes a new version (the flow changes while enrolments are in flight). */
  publishesVersion: z.boolean(),
});
export type EditImpact = z.infer<typeof editImpactSchema>;

/** POST /api/email-sequences/:id/enrolments: contacts, a list or a segment, one of them. */
export const enrolBodySchema = z.union(
  [
    z.object({
      contactIds: z
        .array(rowIdSchema('contactIds must be contact ids'))
        .min(1, 'Choose at least one contact')
        .max(10_000, 'At most 10,000 contacts at once'),
    }),
    z.object({ listId: rowIdSchema('listId must be a list id') }),
    z.object({ segmentId: rowIdSchema('segmentId must be a segment id') }),
  ],
  { error: 'Send contactIds, listId or segmentId' },
);
export type EnrolBody = z.infer<typeof enrolBodySchema>;
export const enrolResponseSchema = z.object({ enrolled: z.number().int() });
export type EnrolResponse = z.infer<typeof enrolResponseSchema>;

/** GET /api/email-sequences/:id/enrolments?page&pageSize&state (total in X-Total-Count). */
export const enrolmentsQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
  state: z.enum(ENROLMENT_STATES, { error: 'state must be active, completed or exited' }).optional(),
});

export const enrolmentSchema = z.object({
  id: z.number().int(),
  contactId: z.number().int().nullable(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  version: z.number().int(),
  currentNodeId: z.string(),
  /** The current node's label in the enrolment's version ('Email 2'), or its id when it has none. */
  currentStep: z.string(),
  state: z.enum(ENROLMENT_STATES),
  /** Why it ended early: unsubscribed, bounced, complained, replied, removed. */
  exitReason: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  enteredAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Enrolment = z.infer<typeof enrolmentSchema>;
export const enrolmentListSchema = z.array(enrolmentSchema);

/** POST /api/email-sequences/events: a custom event of one contact (by id or address). */
export const sequenceEventBodySchema = z
  .object({
    event: z.string({ error: 'Name the event' }).trim().min(1, 'Name the event').max(100),
    contactId: rowIdSchema('contactId must be a contact id').optional(),
    email: z.string().trim().pipe(z.email('Invalid email format')).optional(),
  })
  .refine((body) => body.contactId !== undefined || body.email !== undefined, {
    message: 'Send contactId or email',
    path: ['contactId'],
  });
export type SequenceEventBody = z.input<typeof sequenceEventBodySchema>;

/** Totals of one sequence or of all of an account's (the Analytics tab), counted from enrolments and sends. */
export const sequenceTotalsSchema = z.object({
  enrolled: z.number().int(),
  active: z.number().int(),
  completed: z.number().int(),
  exited: z.number().int(),
  /** Email steps queued for delivery and not sent yet. */
  queued: z.number().int(),
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  /** Percent of sent, one decimal. */
  openRate: z.number(),
  clickRate: z.number(),
});
export type SequenceTotals = z.infer<typeof sequenceTotalsSchema>;

/** One node of the per-step funnel. */
export const sequenceStepStatsSchema = z.object({
  nodeId: z.string(),
  type: z.enum(FLOW_NODE_TYPES),
  label: z.string(),
  /** Enrolments that arrived at the node (the start node: every enrolment). */
  entered: z.number().int(),
  /** Enrolments there now, waiting for it to run. */
  waiting: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  opened: z.number().int(),
  clicked: z.number().int(),
  /** Condition nodes: enrolments sent down the else branch. */
  branchedElse: z.number().int(),
  /** Enrolments whose way ended at the node (completed there, or exited while there). */
  exited: z.number().int(),
});
export type SequenceStepStats = z.infer<typeof sequenceStepStatsSchema>;

/** GET /api/email-sequences/:id/analytics */
export const sequenceAnalyticsSchema = z.object({
  totals: sequenceTotalsSchema,
  steps: z.array(sequenceStepStatsSchema),
});
export type SequenceAnalytics = z.infer<typeof sequenceAnalyticsSchema>;

/** The frequency cap's words: how many marketing emails a contact may get from sequences in 24 hours. */
export const MAX_EMAILS_PER_CONTACT_RANGE = 'Enter a whole number of emails from 1 to 50';

/**
 * GET and PUT /api/sequence-settings: the account's sequence settings. A contact who has had
 * `maxEmailsPerContactPerDay` marketing emails (sequence emails and campaigns) in the last 24 hours
 * gets no sequence email until the 24 hours allow one: it waits, queued, and is not dropped.
 */
export const sequenceSettingsSchema = z.object({
  maxEmailsPerContactPerDay: z
    .number({ error: MAX_EMAILS_PER_CONTACT_RANGE })
    .int(MAX_EMAILS_PER_CONTACT_RANGE)
    .min(1, MAX_EMAILS_PER_CONTACT_RANGE)
    .max(50, MAX_EMAILS_PER_CONTACT_RANGE),
});
export type SequenceSettings = z.infer<typeof sequenceSettingsSchema>;

export const DEFAULT_SEQUENCE_SETTINGS: SequenceSettings = { maxEmailsPerContactPerDay: 3 };
