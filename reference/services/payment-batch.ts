// The sandbox's payment batch runs as each TPP meets the bank: which approved payments they settle and at
// which hours (specification, "Sandbox mock data": every payment except periodic ones, 5 times a day). The
// frame (app.ts) hands both to each world's payment store (state/payment-store.ts), which runs them by the
// bank clock; the faults and the variant that bend them are declared here.
import { BATCH_HOURS, SANDBOX_BATCH, type BatchSelection, type Payment } from '../state/payment-store.js';
import { defineFault, defineVariant, type BehaviourSwitches } from '../switches.js';

const batchNeverRuns = defineFault('sandbox-batch-never-runs', {
  description: 'the sandbox never runs its payment batch processing',
  breaks: ['SBX-09'],
});
// [sandbox] SBX-10: the batch runs leave periodic payments out.
const batchProcessesPeriodic = defineFault('batch-processes-periodic', {
  description: 'the sandbox batch runs settle approved periodic payments too (ACTC becomes ACSC)',
  breaks: ['SBX-10'],
});

const batchRunsInTheMorning = defineVariant('batch-runs-in-the-morning', {
  description: 'the five sandbox batch runs a day are at 08:00, 08:30, 09:00, 09:30 and 10:00 UTC (a 22-hour gap overnight)',
  allowedBy:
    '"The sandbox simulates payment batch processing for all payments except periodic ones, 5 times a day": the times are not given',
  source: 'Specification, What the service does > Sandbox mock data',
});
/** Half-hours after midnight UTC, for the morning runs. */
const MORNING_RUNS = [8, 8.5, 9, 9.5, 10] as const;

/** The hours (UTC) of the batch runs that settle a payment, as the payment's TPP meets the bank. */
export function batchHours(switches: BehaviourSwitches): (payment: Payment) => readonly number[] {
  return (payment) => (switches.forTpp(payment.tppId).reads(batchRunsInTheMorning) ? MORNING_RUNS : BATCH_HOURS);
}

/** Which approved payments the sandbox batch runs take up, as the payment's TPP meets the bank. */
export function batchSelection(switches: BehaviourSwitches): BatchSelection {
  return (payment) => {
    const tppSwitches = switches.forTpp(payment.tppId);
    return !tppSwitches.breaks(batchNeverRuns) && (SANDBOX_BATCH(payment) || tppSwitches.breaks(batchProcessesPeriodic));
  };
}
