import { incidentWorkflowId, searchAttributes, type IncidentWorkflowInput } from '../../../workflows/definitions';

/** How every incident workflow is started: its ID, task queue, input and search attributes. */
export function incidentStartOptions(taskQueue: string, input: IncidentWorkflowInput) {
  return {
    taskQueue,
    workflowId: incidentWorkflowId(input.incidentId),
    args: [input] as [IncidentWorkflowInput],
    typedSearchAttributes: [
      { key: searchAttributes.organizationId, value: input.organizationId },
      { key: searchAttributes.serviceId, value: input.serviceId ?? '' },
      { key: searchAttributes.status, value: input.status },
      { key: searchAttributes.severity, value: input.severity },
    ],
  };
}
