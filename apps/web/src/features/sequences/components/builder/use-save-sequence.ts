import * as React from 'react';
import { validateFlow, type EditImpact, type FlowData, type Sequence } from '@sendwell/contract/sequences';

import { getApiErrorFields, getApiErrorMessage, getApiErrorStatus } from '@/lib/api';
import { toastError } from '@/lib/toast-error';
import { fetchEditImpact, useCreateSequence, useUpdateSequence } from '../../api/use-sequences';
import { nodeIdFromFieldPath } from '../../flow-graph';
import { SEQUENCE_FAILURE, toastNameRequired, toastSequenceSuccess } from '../../sequence-feedback';
import type { BuilderState } from './use-builder-state';

/** A save waiting for the user to accept what it does to the enrolments in flight. */
export interface PendingImpact {
  impact: EditImpact;
  flowData: FlowData;
}

/**
 * The builder's Save / Update: trims name and description (spec §5), asks the edit-impact endpoint
 * first when an edited sequence has enrolments in flight, and shows a 400 about the flow in the
 * builder (the node it names is drawn in red and selected) as well as the spec's error toast.
 */
export function useSaveSequence(builder: BuilderState, editing: Sequence | null, onSaved: () => void) {
  const create = useCreateSequence();
  const update = useUpdateSequence();
  const [checkingImpact, setCheckingImpact] = React.useState(false);
  const [pendingImpact, setPendingImpact] = React.useState<PendingImpact | null>(null);
  const failure = editing ? SEQUENCE_FAILURE.update : SEQUENCE_FAILURE.create;

  /** A 400 is shown in the builder: its message, and the node it names (drawn in red and selected). */
  const showRefusal = (error: unknown, flowData: FlowData): void => {
    if (getApiErrorStatus(error) !== 400) return;
    const path = Object.keys(getApiErrorFields(error)).find((key) => key.startsWith('flowData'));
    // The server runs the contract's validateFlow: run here on what was sent, it names the same node.
    const nodeId = path ? (validateFlow(flowData)?.nodeId ?? nodeIdFromFieldPath(path, flowData)) : null;
    builder.setProblem({ nodeId, message: getApiErrorMessage(error) ?? failure });
    if (nodeId && builder.nodes.some((node) => node.id === nodeId)) builder.selectNode(nodeId);
  };

  const onError = (error: unknown, flowData: FlowData) => {
    showRefusal(error, flowData);
    toastError(error, failure, { serverMessage: 'never' });
  };

  const send = (flowData: FlowData) => {
    const name = builder.name.trim();
    const description = builder.description.trim();
    const { type: triggerType, config: triggerConfig } = builder.trigger;
    builder.setProblem(null);
    if (editing) {
      update.mutate(
        {
          id: editing.id,
          body: { name, description: description || null, triggerType, triggerConfig, flowData },
        },
        {
          onSuccess: () => {
            toastSequenceSuccess('Email sequence updated successfully');
            onSaved();
          },
          onError: (error) => onError(error, flowData),
        },
      );
    } else {
      create.mutate(
        { name, description: description || null, triggerType, triggerConfig, status: 'draft', flowData },
        {
          onSuccess: () => {
            toastSequenceSuccess('Email sequence created successfully');
            onSaved();
          },
          onError: (error) => onError(error, flowData),
        },
      );
    }
  };

  const save = async () => {
    if (builder.name.trim() === '') {
      toastNameRequired();
      return;
    }
    const flowData = builder.flowData();
    // Enrolments may be in flight whatever the list last said: ask the server each time.
    if (editing) {
      setCheckingImpact(true);
      try {
        const impact = await fetchEditImpact(editing.id, flowData);
        if (impact.active > 0) {
          setPendingImpact({ impact, flowData });
          return;
        }
      } catch (error) {
        onError(error, flowData);
        return;
      } finally {
        setCheckingImpact(false);
      }
    }
    send(flowData);
  };

  return {
    save,
    isSaving: create.isPending || update.isPending || checkingImpact,
    pendingImpact,
    confirmImpact: () => {
      if (pendingImpact) send(pendingImpact.flowData);
      setPendingImpact(null);
    },
    cancelImpact: () => setPendingImpact(null),
  };
}
