import { incidentWorkflowId, searchAttributes, type IncidentWorkflowInput } from '../../contracts/workflows';

/**
 * How every incident workflow is started: its ID, task queue, input and search attributes.
 * `autoCloseHours` (AUTO_CLOSE_HOURS) rides in the input; without it the workflow waits 72 h.
 */
export function incidentStartOptions(taskQueue: string, input: IncidentWorkflowInput, autoCloseHours?: number) {
  const args: [IncidentWorkflowInput] = [autoCloseHours === undefined ? input : { ...input, autoCloseSeconds: Math.max(1, Math.round(autoCloseHours * 3600)) }];
  return {
    taskQueue,
    workflowId: incidentWorkflowId(input.incidentId),
    args,
    typedSearchAttributes: [
      { key: searchAttributes.organizationId, value: input.organizationId },
      { key: searchAttributes.serviceId, value: input.serviceId ?? '' },
      { key: searchAttributes.status, value: input.status },
      { key: searchAttributes.severity, value: input.severity },
    ],
  };
}
