/**
 * How a scenario lists card transactions: with bookingStatus and dateFrom. The specification answers "a
 * listing without parameters" for account transactions only; card accounts follow the Berlin Group, which
 * makes bookingStatus mandatory, and dateFrom too for a listing that is no delta. 89 days back keeps within
 * the 90 days any read may be held to (Limits).
 */
import { daysAgo } from '../sandbox/mock-data.js';

export function cardListingQuery(): string {
  return `?bookingStatus=booked&dateFrom=${daysAgo(89)}`;
}
