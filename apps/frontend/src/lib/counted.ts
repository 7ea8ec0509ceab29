/** "1 delegation", "3 delegations": a count with its noun in the right number (English). */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? singular : plural}`;
}

/**
 * Why the composer is disabled while the last answer's delegations hold it: calls waiting
 * for a decision come first (nothing runs until then), then sub-agents still working. Each
 * speaks of one call or of several.
 */
export function delegationWaitReason(waitingForApproval: number, waitingForSubAgents: number): string | undefined {
  if (waitingForApproval > 0) {
    return waitingForApproval === 1
      ? 'Waiting for your decision on a delegation: approve or reject it above.'
      : `Waiting for your decision on ${waitingForApproval} delegations: approve or reject each of them above.`;
  }
  if (waitingForSubAgents > 0) {
    // The composer keeps its Stop meanwhile (use-chat-controls.ts), which ends them all.
    return waitingForSubAgents === 1
      ? 'Waiting for a sub-agent to finish. Stop ends it; open the delegation to follow it.'
      : `Waiting for ${waitingForSubAgents} sub-agents to finish. Stop ends them all; open a delegation to follow it or cancel just that one.`;
  }
  return undefined;
}
